/** Checks of user-supplied text fields, with messages that name the field and say what to send. */
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
