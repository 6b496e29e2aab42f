/**
 * Errors crossing the IPC channel between the server and a runner: serialized on one side and
 * rebuilt on the other here, and nowhere else (inngest-js's serializeError).
 */
import { inspect } from "node:util";

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

/** Whatever was thrown, as it can travel: a non-Error becomes its text. */
export function serializeError(thrown: unknown): SerializedError {
  if (thrown instanceof Error) {
    return {
      name: thrown.name,
      message: thrown.message,
      ...(typeof thrown.stack === "string" ? { stack: thrown.stack } : {}),
    };
  }
  return { name: "Error", message: typeof thrown === "string" ? thrown : inspect(thrown) };
}

/** The error's one-line description: its message, after its name unless that is plain `Error`. */
export function describeError(error: SerializedError): string {
  return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
}

/** The error rebuilt on the receiving side, with the name and stack it had. */
export function deserializeError(error: SerializedError): Error {
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}
