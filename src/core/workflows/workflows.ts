/**
 * Workflows (`p_…`): deploy, update, pause, delete, read and list. A deploy checks the document,
 * pins every step to a saved component, compiles the steps' expressions, sets up the trigger and
 * stores it all as one row. Names are unique per account, so a client can deploy "the same
 * workflow again" by name.
 */

// Kysely here, not in the store: plain reads and writes of workflows and their runs; jobs via store.jobs.
import type { Selectable } from "kysely";
import type { WorkflowsTable } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { ConflictError, InvalidInputError } from "../errors.js";
import { removeSubscriptionsOf } from "../fan-out/subscriptions.js";
import { newId } from "../ids.js";
import { ownedRow } from "../owned-rows.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import { DEFAULT_MAX_EVENTS } from "../sources/sources.js";
import { parseDocument, type WorkflowSpec } from "./document.js";
import { WORKFLOW_RUN_QUEUE } from "./run-queue.js";
import { type PreparedSteps, prepareSteps, type StoredStep } from "./steps.js";
import { linkTrigger, retireTrigger, setTriggerActive, setUpTrigger, type TriggerState } from "./trigger.js";

/** Published after every committed change to a workflow's document, activity or existence. */
export const WORKFLOWS_CHANGED_TOPIC = "workflows:changed";
const WORKFLOWS = { table: "workflows", name: "workflow" } as const;

/**
 * Drops every node's cache of workflows (workflow-cache.ts). Call after committing a change to a
 * workflow's document, activity or existence.
 */
export function forgetWorkflows(context: CoreContext): void {
  context.store.notifier.publish(WORKFLOWS_CHANGED_TOPIC);
}

export interface StoredDocument {
  readonly trigger: TriggerState;
  readonly steps: readonly StoredStep[];
}

export interface Workflow {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly active: boolean;
  readonly document: StoredDocument;
  readonly endpointId: string | null;
  readonly concurrency: number;
  readonly retries: number;
  readonly retryTimeouts: boolean;
  readonly timeoutSeconds: number;
  readonly expressionsBundle: string | null;
  readonly expressionsHash: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export async function createWorkflow(
  context: CoreContext,
  accountId: string,
  input: unknown,
): Promise<Workflow> {
  const spec = parseDocument(input);
  await checkNameFree(context, accountId, spec.name, null);
  const prepared = await prepareSteps(context, accountId, spec.steps);
  const id = newId("p");
  const trigger = await setUpTrigger(context, accountId, { id, name: spec.name }, spec.trigger, null);
  const now = Date.now();
  const active = spec.active ?? true;
  try {
    await context.store.transaction(async (tx) => {
      const db = context.store.dbIn(tx);
      await db
        .insertInto("workflows")
        .values({
          id,
          account_id: accountId,
          ...documentColumns(spec, prepared, trigger, active),
          max_events: DEFAULT_MAX_EVENTS,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await linkTrigger(db, accountId, id, trigger);
    });
  } catch (error) {
    await retireTrigger(context, accountId, id, trigger, null);
    // Two deploys of one name at once: the unique index lets one in.
    await checkNameFree(context, accountId, spec.name, null);
    throw error;
  }
  if (!active) await setTriggerActive(context, accountId, trigger, false);
  return getWorkflow(context, accountId, id);
}

/** `PUT`: a whole document replaces the workflow; `active` alone pauses or resumes it. */
export async function updateWorkflow(
  context: CoreContext,
  accountId: string,
  id: string,
  input: unknown,
): Promise<Workflow> {
  const current = await getWorkflow(context, accountId, id);
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new InvalidInputError(
      "The body must be a workflow document, or { active: true | false }",
      "invalid_workflow",
    );
  }
  const body = input as Record<string, unknown>;
  const keys = Object.keys(body);
  if (keys.length === 1 && keys[0] === "active") {
    if (typeof body.active !== "boolean")
      throw new InvalidInputError("active must be true or false", "invalid_workflow");
    await setActive(context, current, body.active);
    return getWorkflow(context, accountId, id);
  }
  const spec: WorkflowSpec = parseDocument(body);
  if (spec.name !== current.name) await checkNameFree(context, accountId, spec.name, current.id);
  const prepared = await prepareSteps(context, accountId, spec.steps);
  const old = current.document.trigger;
  const trigger = await setUpTrigger(context, accountId, { id, name: spec.name }, spec.trigger, old);
  const active = spec.active ?? current.active;
  await context.store.transaction(async (tx) => {
    const db = context.store.dbIn(tx);
    await db
      .updateTable("workflows")
      .set({
        ...documentColumns(spec, prepared, trigger, active),
        updated_at: Date.now(),
      })
      .where("id", "=", id)
      .execute();
    if (trigger !== old) await linkTrigger(db, accountId, id, trigger);
  });
  forgetWorkflows(context);
  if (trigger !== old) await retireTrigger(context, accountId, id, old, trigger);
  await setTriggerActive(context, accountId, trigger, active);
  return getWorkflow(context, accountId, id);
}

/** The columns a deploy writes: the document as stored, and what is read without parsing it. */
function documentColumns(
  spec: WorkflowSpec,
  prepared: PreparedSteps,
  trigger: TriggerState,
  active: boolean,
) {
  return {
    name: spec.name,
    active: active ? 1 : 0,
    document: JSON.stringify({ trigger, steps: prepared.steps } satisfies StoredDocument),
    trigger_type: trigger.trigger.type,
    endpoint_id: trigger.endpointId,
    trigger_source_id: trigger.sourceId,
    owns_trigger_source: trigger.ownsSource ? 1 : 0,
    concurrency: spec.concurrency,
    retries: spec.retries,
    retry_timeouts: spec.retryTimeouts ? 1 : 0,
    timeout_seconds: spec.timeoutSeconds,
    expressions_bundle: prepared.evaluator?.code ?? null,
    expressions_hash: prepared.evaluator?.hash ?? null,
  };
}

async function setActive(context: CoreContext, workflow: Workflow, active: boolean): Promise<void> {
  await context.store.db
    .updateTable("workflows")
    .set({ active: active ? 1 : 0, updated_at: Date.now() })
    .where("id", "=", workflow.id)
    .execute();
  forgetWorkflows(context);
  await setTriggerActive(context, workflow.accountId, workflow.document.trigger, active);
}

/** Deletes the workflow with its runs, events, subscriptions, queued runs and owned trigger source. */
export async function deleteWorkflow(context: CoreContext, accountId: string, id: string): Promise<void> {
  const workflow = await getWorkflow(context, accountId, id);
  await context.store.transaction(async (tx) => {
    const db = context.store.dbIn(tx);
    // The workflow's row first, locked, as a run's commit locks it before it writes its events
    // and its record (run-executor.ts): a commit under way finishes first (its events and run are
    // deleted with the rest), a later one finds no workflow. Taken last, the two transactions
    // could each hold what the other waits for (a deadlock, the delete failing with a 500), or a
    // commit could store events between the deletes and the row's removal.
    if (context.store.capabilities.skipLocked) {
      await db.selectFrom("workflows").select("id").where("id", "=", workflow.id).forUpdate().execute();
    }
    await removeSubscriptionsOf(db, workflow.id);
    await db
      .deleteFrom("jobs")
      .where("queue", "=", WORKFLOW_RUN_QUEUE)
      .where("group_key", "=", workflow.id)
      .execute();
    await db.deleteFrom("workflow_runs").where("workflow_id", "=", workflow.id).execute();
    await db.deleteFrom("events").where("emitter_id", "=", workflow.id).execute();
    await db.deleteFrom("workflows").where("id", "=", workflow.id).execute();
  });
  forgetWorkflows(context);
  await retireTrigger(context, accountId, workflow.id, workflow.document.trigger, null);
  const runners = [
    workflow.document.steps.map((step) => step.componentId),
    expressionsRunnerId(workflow.id),
  ].flat();
  const slots = Array.from({ length: workflow.concurrency - 1 }, (_, slot) => slot + 1);
  await context.sandbox.evict(expressionsRunnerId(workflow.id));
  await Promise.all(
    runners.flatMap((runner) => slots.map((slot) => context.sandbox.evict(slotRunnerId(runner, slot)))),
  );
}

export async function getWorkflow(context: CoreContext, accountId: string, id: string): Promise<Workflow> {
  return toWorkflow(await ownedRow(context.store.db, WORKFLOWS, accountId, id));
}

/** The workflow that listens at an HTTP endpoint, whoever owns it; null when none does. */
export const workflowAtEndpoint = (context: CoreContext, endpointId: string) =>
  workflowWhere(context, "endpoint_id", endpointId);

/** The workflow by id, whoever owns it (a run's); null when there is none. */
export const loadWorkflow = (context: CoreContext, id: string) => workflowWhere(context, "id", id);

async function workflowWhere(context: CoreContext, column: "id" | "endpoint_id", value: string) {
  const row = await context.store.db
    .selectFrom("workflows")
    .selectAll()
    .where(column, "=", value)
    .executeTakeFirst();
  return row ? toWorkflow(row) : null;
}

export function listWorkflows(
  context: CoreContext,
  accountId: string,
  page: PageRequest,
): Promise<Page<Workflow>> {
  const owned = context.store.db.selectFrom("workflows").selectAll().where("account_id", "=", accountId);
  return readQueryPage(page, owned, toWorkflow);
}

/** Slot 0 of a workflow's concurrency uses a runner's own id; slot k > 0 a runner of its own. */
export function slotRunnerId(runnerId: string, slot: number): string {
  return slot === 0 ? runnerId : `${runnerId}~${slot}`;
}

/** The sandbox runner of a workflow's expression evaluator. */
export function expressionsRunnerId(workflowId: string): string {
  return `${workflowId}-expressions`;
}

async function checkNameFree(
  context: CoreContext,
  accountId: string,
  name: string,
  except: string | null,
): Promise<void> {
  const row = await context.store.db
    .selectFrom("workflows")
    .select("id")
    .where("account_id", "=", accountId)
    .where("name", "=", name)
    .executeTakeFirst();
  if (row && row.id !== except) {
    throw new ConflictError(
      "workflow_exists",
      `A workflow named '${name}' exists (${row.id}); update it with PUT /v1/workflows/${row.id}, or choose another name`,
    );
  }
}

function toWorkflow(row: Selectable<WorkflowsTable>): Workflow {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    active: row.active === 1,
    document: JSON.parse(row.document) as StoredDocument,
    endpointId: row.endpoint_id,
    concurrency: row.concurrency,
    retries: row.retries,
    retryTimeouts: row.retry_timeouts === 1,
    timeoutSeconds: row.timeout_seconds,
    expressionsBundle: row.expressions_bundle,
    expressionsHash: row.expressions_hash,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
