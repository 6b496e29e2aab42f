/**
 * JSON as the wire and storage format of what a component hands over ($emit, db.set, run's return
 * value). Stringifying once, at hand-over, validates the value, deep-copies it (later mutations do
 * not leak) and produces the bytes the runner sends. Errors name the call and say what to fix.
 */

/**
 * JSON text of a value `JSON.stringify` accepts, with a clear error for cycles and BigInts.
 * Returns undefined for undefined (and for functions and symbols, as JSON.stringify does).
 */
export function toJson(value: unknown, where: string): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${where}: the value is not JSON-serializable (${reasonOf(error)})`);
  }
}

/**
 * JSON text of a value that must survive a round trip: functions, symbols and a top-level
 * undefined are refused (JSON would silently drop them), as are cycles and BigInts. Nested
 * `undefined` object fields are dropped, as JSON does.
 */
export function toStrictJson(value: unknown, where: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, refuseLossyValues);
  } catch (error) {
    throw new TypeError(`${where}: the value is not JSON-serializable (${reasonOf(error)})`);
  }
  if (json === undefined) {
    throw new TypeError(`${where}: the value is not JSON-serializable (got ${typeof value})`);
  }
  return json;
}

function refuseLossyValues(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === "function" || typeof value === "symbol") {
    const at = key === "" ? "" : ` at key "${key}"`;
    throw new TypeError(`a ${typeof value}${at} cannot be stored`);
  }
  return value;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8's cycle message spans lines; its first line says enough.
  return message.split("\n")[0] ?? message;
}
