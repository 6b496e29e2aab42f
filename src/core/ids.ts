/**
 * Resource ids and secrets. Ids are a type prefix (`wh_`, `dc_`, …) and a lower-case ULID, so
 * they sort by creation time: lists page by id without a separate ordering column.
 */
import { createHash, randomBytes } from "node:crypto";
import { newUlid } from "../store/row-ids.js";

export type IdPrefix =
  | "u"
  | "key"
  | "wh"
  | "job"
  | "sc"
  | "dc"
  | "inv"
  | "sub"
  | "dlv"
  | "p"
  | "wr"
  | "rp"
  | "apn"
  | "oac"
  | "dyp"
  | "ds"
  | "imp"
  | "proj"
  | "ocl";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${newUlid()}`;
}

/** True when `value` has the shape of an id with this prefix (for cursors and path parameters). */
export function looksLikeId(value: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`).test(value);
}

/** A new API key: high-entropy, so a plain SHA-256 is a sufficient hash to store. */
export function newApiKey(): string {
  return `sk_${randomBytes(24).toString("base64url")}`;
}

export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex");
}

/** A Standard Webhooks signing secret: `whsec_` and base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
