/**
 * Dynamic props, inside the runner: a prop's `options(…)` (its own, or its propDefinition's, with
 * `this` its app object as on Pipedream) and `additionalProps(…)`, both with `this` bound as in
 * `run`. A `ConfigurationError` keeps its name, so core shows its message as a configuration error.
 */
import type { PropDefinition } from "../component-definition.js";
import { createAppObject } from "./app-prop.js";
import {
  type ComponentObject,
  isRecord,
  NotAComponentError,
  type UnknownRecord,
} from "./component-object.js";
import { describeProp } from "./describe-component.js";

/** What core sends for an options call (the invocation's `event`). */
export interface OptionsRequest {
  readonly propName: string;
  readonly page?: number;
  readonly prevContext?: unknown;
  readonly query?: string;
  /** The configured values as given (for an inputValues function). */
  readonly configuredProps?: UnknownRecord;
}

export interface OptionsAnswer {
  readonly options: unknown[];
  readonly context: unknown;
}

/** Thrown when the prop has no options to fetch: core answers 400. */
export class NoOptionsError extends Error {
  override readonly name = "NoOptionsError";
}

function isConfigurationError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "ConfigurationError" || error.constructor?.name === "ConfigurationError")
  );
}

/** Runs `work`; a ConfigurationError comes out as an Error named so, with only its message. */
async function keepingConfigurationErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    const plain = new Error((error as Error).message);
    plain.name = "ConfigurationError";
    plain.stack = undefined;
    throw plain;
  }
}

/** The props additionalProps returns, described (an empty list when the component has none). */
export async function runAdditionalProps(
  component: ComponentObject,
  self: UnknownRecord,
): Promise<PropDefinition[]> {
  const declared = await declaredAdditionalProps(component, self);
  return Object.entries(declared).map(([name, prop]) => describeProp(name, prop));
}

async function declaredAdditionalProps(
  component: ComponentObject,
  self: UnknownRecord,
): Promise<UnknownRecord> {
  if (typeof component.additionalProps !== "function") return {};
  const previous = isRecord(component.props) ? { ...component.props } : {};
  const result: unknown = await keepingConfigurationErrors(async () =>
    (component.additionalProps as (defs: unknown) => unknown).call(self, previous),
  );
  if (result === undefined || result === null) return {};
  if (!isRecord(result)) {
    throw new NotAComponentError("additionalProps must return an object of prop definitions");
  }
  return result;
}

/** Fetches one page of a prop's options. */
export async function runOptions(
  component: ComponentObject,
  self: UnknownRecord,
  request: OptionsRequest,
): Promise<OptionsAnswer> {
  const declaredProps = isRecord(component.props) ? component.props : {};
  let declared: unknown = declaredProps[request.propName];
  if (declared === undefined) declared = (await declaredAdditionalProps(component, self))[request.propName];
  if (!isRecord(declared)) throw new NoOptionsError(`the component has no prop '${request.propName}'`);

  let prop: UnknownRecord = declared;
  let bound: UnknownRecord = self;
  let inputValues: UnknownRecord = {};
  const reference = declared.propDefinition;
  if (Array.isArray(reference) && isRecord(reference[0]) && typeof reference[1] === "string") {
    const [app, definitionName, input] = reference as [UnknownRecord, string, unknown];
    const inherited = isRecord(app.propDefinitions) ? app.propDefinitions[definitionName] : undefined;
    if (isRecord(inherited)) {
      const { propDefinition: _, ...overrides } = declared;
      prop = { ...inherited, ...overrides };
      bound = appInstance(declaredProps, self, app);
    }
    const configured = request.configuredProps ?? {};
    const values = typeof input === "function" ? (input as (c: unknown) => unknown)(configured) : input;
    if (isRecord(values)) inputValues = values;
  }
  const { options } = prop;
  if (Array.isArray(options)) return { options, context: null };
  if (typeof options !== "function") {
    throw new NoOptionsError(`prop '${request.propName}' has no options to fetch`);
  }
  const argument = {
    ...inputValues,
    page: request.page ?? 0,
    prevContext: request.prevContext ?? {},
    ...(request.query === undefined ? {} : { query: request.query }),
  };
  const result: unknown = await keepingConfigurationErrors(async () =>
    (options as (arg: unknown) => unknown).call(bound, argument),
  );
  if (Array.isArray(result)) return { options: result, context: null };
  if (isRecord(result) && Array.isArray(result.options)) {
    return { options: result.options, context: result.context ?? null };
  }
  if (result === undefined || result === null) return { options: [], context: null };
  throw new TypeError(
    `prop '${request.propName}': options must return an array, or { options: [...], context: { nextPageToken } }`,
  );
}

/** The app object a propDefinition points at, with the `$auth` of the component's prop for that app. */
function appInstance(declaredProps: UnknownRecord, self: UnknownRecord, app: UnknownRecord): UnknownRecord {
  for (const [name, candidate] of Object.entries(declaredProps)) {
    const sameObject = candidate === app;
    const sameApp = isRecord(candidate) && candidate.type === "app" && candidate.app === app.app;
    if ((sameObject || sameApp) && isRecord(self[name])) return self[name] as UnknownRecord;
  }
  return createAppObject(app, {});
}
