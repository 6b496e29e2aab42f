/**
 * Encryption of secrets at rest (webhook signing secrets, secret props): AES-256-GCM under the
 * installation's master key. The master key comes from SLUICE_MASTER_KEY, or is generated into the
 * data directory (mode 0600) on first start. Its fingerprint is recorded in the database, so a node
 * started with a different key refuses to run instead of writing secrets nobody can read.
 */
// Kysely here, not in the store: one `meta` row holds the master key's fingerprint.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ConfigError, ENV } from "../config/env.js";
import type { Executor } from "../store/schema.js";

export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(sealed: string): string;
  /**
   * An HMAC-SHA256 tag (base64url) of `message` under a key derived from the master key for
   * `purpose` alone, so a tag made for one purpose proves nothing for another.
   */
  tag(purpose: string, message: string): string;
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const MASTER_KEY_FILE = "master.key";

export function createSecretBox(key: Buffer): SecretBox {
  const tagKeys = new Map<string, Buffer>();
  return {
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
    },
    decrypt(sealed) {
      const [version, body] = sealed.split(":");
      if (version !== VERSION || body === undefined) throw new Error("Unknown secret format");
      const raw = Buffer.from(body, "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        "utf8",
      );
    },
    tag(purpose, message) {
      let derived = tagKeys.get(purpose);
      if (!derived) {
        derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `sluice:${purpose}`, 32));
        tagKeys.set(purpose, derived);
      }
      return createHmac("sha256", derived).update(message).digest("base64url");
    },
  };
}

/** The configured master key, or the one in the data directory, generated there if absent. */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) return decodeMasterKey(configured);
  const file = path.join(dataDir, MASTER_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  try {
    return decodeMasterKey(fs.readFileSync(file, "utf8").trim());
  } catch (error) {
    throw new ConfigError(`The master key in ${file} is unreadable: ${(error as Error).message}`);
  }
}

function decodeMasterKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32) {
    throw new ConfigError(
      `${ENV.masterKey} must be 32 bytes, as 64 hex digits or base64 (generate one with: openssl rand -base64 32)`,
    );
  }
  return key;
}

/**
 * Records the key's fingerprint on first use and checks it on every later start, so that all
 * nodes sharing a database use the same key.
 */
export async function checkMasterKey(db: Executor, key: Buffer): Promise<void> {
  const fingerprint = createHash("sha256").update(key).digest("hex").slice(0, 16);
  await db
    .insertInto("meta")
    .values({ key: "master_key_fingerprint", value: fingerprint })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
  const row = await db
    .selectFrom("meta")
    .select("value")
    .where("key", "=", "master_key_fingerprint")
    .executeTakeFirstOrThrow();
  if (row.value !== fingerprint) {
    throw new ConfigError(
      `This database's secrets were encrypted with a different master key (fingerprint ${row.value}, this node has ${fingerprint}). ` +
        `Set ${ENV.masterKey} to the key the database was set up with; every node must use the same one.`,
    );
  }
}
