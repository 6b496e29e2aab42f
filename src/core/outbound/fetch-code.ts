/** Fetches a component's code from an http(s) URL, through the SSRF guard, with size and time limits. */
import { fetch } from "undici";
import { InvalidInputError } from "../errors.js";
import { type AddressPolicy, BlockedAddressError, checkUrlHost, createGuardedAgent } from "./ssrf-guard.js";

const MAX_CODE_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

export type CodeFetcher = (url: string) => Promise<string>;

export function createCodeFetcher(policy: AddressPolicy): CodeFetcher {
  const dispatcher = createGuardedAgent(policy);
  return async (raw) => {
    const url = parseCodeUrl(raw);
    try {
      checkUrlHost(policy, url);
      const response = await fetch(url, {
        dispatcher,
        redirect: "follow",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!response.ok) {
        throw new InvalidInputError(
          `component_url answered ${response.status}: ${url}`,
          "component_url_failed",
        );
      }
      const text = await response.text();
      if (Buffer.byteLength(text) > MAX_CODE_BYTES) {
        throw new InvalidInputError(`component_url's code is larger than 5 MB`, "component_url_failed");
      }
      return text;
    } catch (error) {
      if (error instanceof InvalidInputError) throw error;
      const cause = (error as { cause?: unknown }).cause;
      if (error instanceof BlockedAddressError || cause instanceof BlockedAddressError) {
        throw new InvalidInputError(
          (cause instanceof BlockedAddressError ? cause : (error as Error)).message,
          "blocked_address",
        );
      }
      const reason = cause instanceof Error ? cause.message : (error as Error).message;
      throw new InvalidInputError(`Could not fetch component_url ${url}: ${reason}`, "component_url_failed");
    }
  };
}

/** An http(s) URL; GitHub "blob" page URLs are read as their raw file, as Pipedream does. */
function parseCodeUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInputError(`component_url '${raw}' is not an absolute URL`, "invalid_url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidInputError("component_url must be an http or https URL", "invalid_url");
  }
  const blob = /^\/([^/]+)\/([^/]+)\/blob\/(.+)$/.exec(url.pathname);
  if (url.hostname === "github.com" && blob) {
    return new URL(`https://raw.githubusercontent.com/${blob[1]}/${blob[2]}/${blob[3]}`);
  }
  return url;
}
