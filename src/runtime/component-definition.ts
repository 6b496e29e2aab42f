/**
 * What a component declares, as plain data. The sandbox produces it by loading the component
 * (untrusted code never runs in the server process); core validates it and serves it as
 * `configurable_props`. Field names follow Pipedream's component API and REST responses.
 */

export type ComponentType = "source" | "action";
export type DedupeStrategy = "unique" | "greatest" | "last";
export type HookName = "deploy" | "activate" | "deactivate";

/** One entry of `props`, normalised: the string shorthand expanded, `propDefinition` resolved. */
export interface PropDefinition {
  readonly name: string;
  /** `string`, `integer`, `boolean`, `object`, `any`, `app`, `string[]`, `$.interface.http`, `$.interface.timer`, `$.service.db`, … */
  readonly type: string;
  readonly label?: string;
  readonly description?: string;
  readonly optional?: boolean;
  readonly default?: unknown;
  readonly secret?: boolean;
  readonly min?: number;
  readonly max?: number;
  /** Static options as given (strings or `{label, value}`); absent when there are none or they are dynamic. */
  readonly options?: readonly unknown[];
  /** True when `options` is a method (async options, answered by the sandbox on request). */
  readonly remoteOptions?: boolean;
  readonly useQuery?: boolean;
  readonly reloadProps?: boolean;
  /** Pipedream's flag for a prop whose configured value carries its option's label too. */
  readonly withLabel?: boolean;
  /** For `app` props: the app's name slug. */
  readonly app?: string;
  /** For `$.interface.http`. */
  readonly customResponse?: boolean;
  /** For `$.interface.timer`: Pipedream's non-configurable schedule. */
  readonly static?: unknown;
  /** For `alert` (display only): `info`, `neutral`, `warning`, `error`, and its text. */
  readonly alertType?: string;
  readonly content?: string;
  /** Keys present in the source definition that this list does not model (kept for diagnostics). */
  readonly extraKeys?: readonly string[];
}

export interface ComponentDefinition {
  readonly name: string;
  readonly key?: string;
  readonly version?: string;
  readonly description?: string;
  readonly type: ComponentType;
  readonly props: readonly PropDefinition[];
  readonly dedupe?: string;
  readonly hooks: readonly HookName[];
  readonly methods: readonly string[];
  readonly hasRun: boolean;
  readonly hasAdditionalProps: boolean;
}
