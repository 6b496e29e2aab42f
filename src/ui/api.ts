/**
 * The UI's one way to the server: the shared typed client (src/client), authenticated by the
 * session cookie the browser sends by itself, with the CSRF header every state-changing request
 * needs. Nothing here holds the API key.
 */
import { ApiError, SluiceClient } from "../client/client.js";

export const CSRF_HEADER = "x-sluice-csrf";

export const api = new SluiceClient({ baseUrl: window.location.origin, headers: { [CSRF_HEADER]: "1" } });

export { ApiError };

/** The message to show for a failed call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
