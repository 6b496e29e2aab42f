/**
 * The component object a bundle exports, as the runner sees it: untrusted data, checked only as
 * far as the runner needs to call into it. Everything else is described as found (see
 * describe-component.ts) and validated by core.
 */

export type UnknownRecord = Record<string, unknown>;

/** A default export that passed `asComponentObject`: an object with a name. */
export interface ComponentObject extends UnknownRecord {
  readonly name: string;
}

/** The bundle's default export is not a component: the message says what to fix. */
export class NotAComponentError extends Error {
  override readonly name = "NotAComponentError";
  readonly code = "not_a_component";
}

export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows Pipedream: a component is an object, and `name` is required. */
export function asComponentObject(defaultExport: unknown): ComponentObject {
  if (!isRecord(defaultExport)) {
    const got =
      defaultExport === null ? "null" : Array.isArray(defaultExport) ? "an array" : typeof defaultExport;
    throw new NotAComponentError(
      `the module's default export must be the component object (export default { name, props, run, … }), got ${got}`,
    );
  }
  if (typeof defaultExport.name !== "string" || defaultExport.name.trim() === "") {
    throw new NotAComponentError('the component has no name: add name: "…" to the exported object');
  }
  return defaultExport as ComponentObject;
}

/** The own enumerable function-valued entries of an object field (`methods`, `hooks`), if any. */
export function functionsOf(value: unknown): [string, (...args: unknown[]) => unknown][] {
  if (!isRecord(value)) return [];
  const found: [string, (...args: unknown[]) => unknown][] = [];
  for (const [name, fn] of Object.entries(value)) {
    if (typeof fn === "function") found.push([name, fn as (...args: unknown[]) => unknown]);
  }
  return found;
}
