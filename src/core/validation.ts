/** Checks of user-supplied fields and JSON, with messages that name the field and say what to send. */
import { InvalidInputError } from "./errors.js";

export function requiredText(value: unknown, field: string, maxLength: number): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidInputError(`${field} is required: a non-empty string`);
  }
  if (value.length > maxLength)
    throw new InvalidInputError(`${field} must be at most ${maxLength} characters`);
  return value.trim();
}

export function optionalText(value: unknown, field: string, maxLength: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new InvalidInputError(`${field} must be a string`);
  if (value.length > maxLength)
    throw new InvalidInputError(`${field} must be at most ${maxLength} characters`);
  return value;
}

/**
 * How deep JSON from outside may nest. Parsing it is iterative, but writing it out again (to a
 * runner, into the database, into a response) recurses, and a few thousand levels overflow the
 * stack. Real payloads stay far below this.
 */
export const MAX_JSON_DEPTH = 512;

/** Refuses a value that nests arrays and objects deeper than MAX_JSON_DEPTH; walks it without recursion. */
export function checkJsonDepth(value: unknown, what: string): void {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== "object") continue;
    if (depth > MAX_JSON_DEPTH) {
      throw new InvalidInputError(
        `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
        "json_too_deep",
      );
    }
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
}
