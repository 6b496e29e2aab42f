/**
 * Introspection of a loaded component into a `ComponentDefinition` (plain data). Runs inside the
 * runner, so untrusted code is only ever touched there. It describes faithfully and does not
 * judge: prop rules (types, which fields go with which type) are core's to validate. It only
 * refuses what it cannot describe — an export that is not a component, an unknown `type`, a
 * `propDefinition` that points nowhere — with a NotAComponentError saying what to fix.
 */
import type {
  ComponentDefinition,
  ComponentType,
  HookName,
  PropDefinition,
} from "../component-definition.js";
import {
  type ComponentObject,
  functionsOf,
  isRecord,
  NotAComponentError,
  type UnknownRecord,
} from "./component-object.js";

const HOOK_NAMES: readonly HookName[] = ["deploy", "activate", "deactivate"];

/** Prop fields copied as given (JSON-safe copies); `options` and the rest are handled apart. */
const COPIED_FIELDS = [
  "label",
  "description",
  "optional",
  "default",
  "secret",
  "min",
  "max",
  "useQuery",
  "reloadProps",
  "withLabel",
  "customResponse",
  "static",
  // alert (display only), $.interface.apphook, dir: described for forms, not configured.
  "alertType",
  "content",
  "appProp",
  "eventNames",
  "accessMode",
  "sync",
] as const;

/** Fields that are part of the model though not copied as such. */
const HANDLED_FIELDS = new Set<string>([
  ...COPIED_FIELDS,
  "type",
  "options",
  "propDefinition",
  "app",
  "methods",
  "propDefinitions",
]);

export function describeComponent(component: ComponentObject): ComponentDefinition {
  const declaredProps = isRecord(component.props) ? component.props : {};
  const definition: ComponentDefinition = {
    name: component.name,
    ...stringField(component, "key"),
    ...stringField(component, "version"),
    ...stringField(component, "description"),
    type: componentType(component.type),
    props: Object.entries(declaredProps).map(([name, prop]) => describeProp(name, prop)),
    ...stringField(component, "dedupe"),
    hooks: HOOK_NAMES.filter(
      (hook) => isRecord(component.hooks) && typeof component.hooks[hook] === "function",
    ),
    methods: functionsOf(component.methods).map(([name]) => name),
    hasRun: typeof component.run === "function",
    hasAdditionalProps: typeof component.additionalProps === "function",
  };
  return definition;
}

function componentType(type: unknown): ComponentType {
  if (type === undefined || type === null) return "source";
  if (type === "source" || type === "action") return type;
  throw new NotAComponentError(
    `the component's type must be "source" or "action", got ${JSON.stringify(type)}`,
  );
}

/**
 * One prop: the string shorthand (`db: "$.service.db"`) becomes `{ type }`; `propDefinition` is
 * resolved from the app's `propDefinitions` with the prop's own fields on top; `options` stays
 * when static and becomes `remoteOptions: true` when it is a method. A missing or non-string
 * `type` is described as "" for core to report.
 */
export function describeProp(name: string, declared: unknown): PropDefinition {
  if (typeof declared === "string") return { name, type: declared };
  if (!isRecord(declared)) return { name, type: "" };
  const prop = resolvePropDefinition(name, declared);
  if (prop.type === "app") {
    return { name, type: "app", ...(typeof prop.app === "string" ? { app: prop.app } : {}), ...copied(prop) };
  }
  // Fields are copied as given: the types of PropDefinition are what core checks them against.
  const described: UnknownRecord = {
    name,
    type: typeof prop.type === "string" ? prop.type : "",
    ...copied(prop),
  };
  if (typeof prop.options === "function") described.remoteOptions = true;
  else if (prop.options !== undefined) described.options = jsonCopy(prop.options);
  const extraKeys = Object.keys(prop).filter((key) => !HANDLED_FIELDS.has(key));
  if (extraKeys.length > 0) described.extraKeys = extraKeys;
  return described as unknown as PropDefinition;
}

function resolvePropDefinition(name: string, prop: UnknownRecord): UnknownRecord {
  const reference = prop.propDefinition;
  if (reference === undefined) return prop;
  const { propDefinition: _, ...overrides } = prop;
  if (!Array.isArray(reference) || !isRecord(reference[0]) || typeof reference[1] !== "string") {
    throw new NotAComponentError(
      `prop "${name}": propDefinition must be [app, "definitionName", inputValues?], with the app object first`,
    );
  }
  const [app, definitionName] = reference as [UnknownRecord, string];
  const inherited = isRecord(app.propDefinitions) ? app.propDefinitions[definitionName] : undefined;
  if (!isRecord(inherited)) {
    const appName = typeof app.app === "string" ? `app "${app.app}"` : "the app";
    throw new NotAComponentError(
      `prop "${name}": propDefinition refers to "${definitionName}", which ${appName} does not define in its propDefinitions`,
    );
  }
  return { ...inherited, ...overrides };
}

function copied(prop: UnknownRecord): UnknownRecord {
  const out: UnknownRecord = {};
  for (const field of COPIED_FIELDS) {
    const value = jsonCopy(prop[field]);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

function stringField<K extends string>(component: UnknownRecord, key: K): Partial<Record<K, string>> {
  const value = component[key];
  return typeof value === "string" ? ({ [key]: value } as Partial<Record<K, string>>) : {};
}

/** A JSON-safe copy (the definition crosses the IPC channel as JSON); undefined when impossible. */
function jsonCopy(value: unknown): unknown {
  if (value === undefined || typeof value === "function") return undefined;
  try {
    const json = JSON.stringify(value);
    return json === undefined ? undefined : JSON.parse(json);
  } catch {
    return undefined;
  }
}
