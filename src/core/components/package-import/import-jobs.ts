/**
 * Imports of Pipedream-layout packages as jobs (`POST /v1/registry/imports`): a large package takes
 * longer than a request should be held open, so the request checks and unpacks it (every error a
 * user can fix comes back at once) and the components are imported in the background, each
 * recorded in the import's row. A dead node's import stops renewing its heartbeat and reads as
 * failed; running it again is safe, since a component already published unchanged is skipped.
 */
// Kysely here, not in the store: reads and writes only its own table (registry_imports).
import type { RegistryImportsTable } from "../../../store/schema.js";
import type { Account } from "../../accounts/accounts.js";
import type { CoreContext } from "../../context.js";
import { newId } from "../../ids.js";
import { ownedRow } from "../../owned-rows.js";
import { type Page, type PageRequest, readQueryPage } from "../../pagination.js";
import {
  type ImportedComponent,
  type ImportInput,
  importComponent,
  type PreparedImport,
  prepareImport,
} from "./import-package.js";

const HEARTBEAT_MS = 10_000;
/** Six missed heartbeats: the node running the import is gone. */
const CUT_OFF_MS = 60_000;
const IMPORTS = { table: "registry_imports", name: "import", prefix: "imp" } as const;

export type ImportStatus = "running" | "succeeded" | "failed";

export interface ImportJob {
  readonly id: string;
  readonly status: ImportStatus;
  readonly registry: "public" | "private";
  readonly source: string;
  /** How many components the package has. */
  readonly total: number;
  /** The components imported so far, in order: all `total` of them once it has succeeded. */
  readonly components: readonly ImportedComponent[];
  /** Why it stopped before its end (`failed`), or null. */
  readonly error: string | null;
  readonly createdAt: number;
  readonly finishedAt: number | null;
}

/** Checks and unpacks the package, records the job, and imports its components in the background. */
export async function startImport(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  input: ImportInput,
): Promise<ImportJob> {
  const prepared = await prepareImport(context, account, input);
  const id = newId("imp");
  const now = Date.now();
  try {
    await context.store.db
      .insertInto("registry_imports")
      .values({
        id,
        account_id: account.id,
        registry: prepared.registry,
        source: prepared.source,
        status: "running",
        total: prepared.files.length,
        report: "[]",
        error: null,
        created_at: now,
        heartbeat_at: now,
        finished_at: null,
      })
      .execute();
  } catch (error) {
    await prepared.discard();
    throw error;
  }
  void runImport(context, account, id, prepared);
  return getImport(context, account.id, id);
}

/** Never rejects: what goes wrong is written on the job's row (or, failing that, its heartbeat stops). */
async function runImport(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  id: string,
  prepared: PreparedImport,
): Promise<void> {
  const row = () => context.store.db.updateTable("registry_imports").where("id", "=", id);
  const heartbeat = setInterval(() => {
    row()
      .set({ heartbeat_at: Date.now() })
      .execute()
      .catch(() => {
        // The database is away: the next beat or the next component tries again.
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const components: ImportedComponent[] = [];
  try {
    for (const file of prepared.files) {
      components.push(await importComponent(context, account, prepared, file));
      await row()
        .set({ report: JSON.stringify(components), heartbeat_at: Date.now() })
        .execute();
    }
    const now = Date.now();
    await row().set({ status: "succeeded", heartbeat_at: now, finished_at: now }).execute();
  } catch (error) {
    const now = Date.now();
    const reason = error instanceof Error ? error.message : String(error);
    await row()
      .set({
        status: "failed",
        report: JSON.stringify(components),
        error: `The import stopped after ${components.length} of ${prepared.files.length} components: ${reason}`,
        heartbeat_at: now,
        finished_at: now,
      })
      .execute()
      .catch(() => {
        // Unrecorded: once its heartbeat is old enough the job reads as cut off.
      });
  } finally {
    clearInterval(heartbeat);
    await prepared.discard().catch(() => {});
  }
}

export async function getImport(context: CoreContext, accountId: string, id: string): Promise<ImportJob> {
  const row = await ownedRow(context.store.db, IMPORTS, accountId, id);
  return toJob(row, Date.now());
}

export function listImports(
  context: CoreContext,
  accountId: string,
  page: PageRequest,
): Promise<Page<ImportJob>> {
  const owned = context.store.db
    .selectFrom("registry_imports")
    .selectAll()
    .where("account_id", "=", accountId);
  const now = Date.now();
  return readQueryPage(page, owned, (row) => toJob(row, now));
}

/** A row as the import's readers select it: every column but the owner's. */
type ImportRow = Omit<RegistryImportsTable, "account_id">;

function toJob(row: ImportRow, now: number): ImportJob {
  const components = JSON.parse(row.report) as ImportedComponent[];
  const heartbeatAt = Number(row.heartbeat_at);
  const cutOff = row.status === "running" && now - heartbeatAt > CUT_OFF_MS;
  return {
    id: row.id,
    status: cutOff ? "failed" : (row.status as ImportStatus),
    registry: row.registry === "public" ? "public" : "private",
    source: row.source,
    total: Number(row.total),
    components,
    error: cutOff
      ? `The server running this import stopped after ${components.length} of ${row.total} components (no progress since ${new Date(heartbeatAt).toISOString()}). Run the import again: components already published are skipped.`
      : row.error,
    createdAt: Number(row.created_at),
    finishedAt: cutOff ? heartbeatAt : row.finished_at === null ? null : Number(row.finished_at),
  };
}
