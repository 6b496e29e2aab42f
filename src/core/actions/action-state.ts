/**
 * `$.service.db` in actions: the key-value state an action keeps between its runs, as Pipedream's
 * registry actions expect (`helper_functions-retrieve-new-rss-stories` keeps the stories it has
 * seen). A workflow's step keeps its own, per workflow and step; an action run on its own keeps
 * one per account and component key. The step's snapshot goes into the sandbox with the run, and
 * its `db.set`s come back as the invocation's writes, committed with the run's record.
 */
// Kysely here, not in the store: plain prepared reads and upserts of the action's own rows.
import type { ComponentDefinition } from "../../runtime/component-definition.js";
import { prepared, type StatementTarget } from "../../store/prepared.js";
import { preparedWrite, type Write } from "../../store/write-together.js";
import { storableText } from "../storable-text.js";

/** Whose state an action reads and writes. */
export type StateOwner =
  | { readonly workflowId: string; readonly step: string }
  | { readonly accountId: string; readonly componentKey: string };

/** Whether the component declares a `$.service.db` prop (only then is its state read). */
export function keepsState(definition: ComponentDefinition): boolean {
  return definition.props.some((prop) => prop.type === "$.service.db");
}

/** The owner's state, as the action's `db.get` sees it. */
export async function readActionState(
  store: StatementTarget,
  owner: StateOwner,
): Promise<Record<string, unknown>> {
  const rows =
    "workflowId" in owner
      ? await stepStateOf.execute(store, { workflow_id: owner.workflowId, step: owner.step })
      : await actionStateOf.execute(store, {
          account_id: owner.accountId,
          component_key: owner.componentKey,
        });
  const state: Record<string, unknown> = {};
  for (const row of rows) state[row.key] = JSON.parse(row.value);
  return state;
}

/**
 * The writes that store the action's `db.set`s, a key each. Each is written only while its owner
 * exists: a workflow or account deleted during the run keeps nothing of it.
 */
export function actionStateWrites(owner: StateOwner, dbWrites: Readonly<Record<string, unknown>>): Write[] {
  return Object.entries(dbWrites).map(([key, value]) => {
    const stored = { key: storableText(key), value: JSON.stringify(value ?? null) };
    return "workflowId" in owner
      ? preparedWrite(upsertStepState, { workflow_id: owner.workflowId, step: owner.step, ...stored })
      : preparedWrite(upsertActionState, {
          account_id: owner.accountId,
          component_key: owner.componentKey,
          ...stored,
        });
  });
}

const stepStateOf = prepared<{ workflow_id: string; step: string }, { key: string; value: string }>(
  (creator, values) =>
    creator
      .selectFrom("workflow_step_state")
      .select(["key", "value"])
      .where("workflow_id", "=", values.workflow_id)
      .where("step", "=", values.step),
  { reusePlan: true },
);

const actionStateOf = prepared<{ account_id: string; component_key: string }, { key: string; value: string }>(
  (creator, values) =>
    creator
      .selectFrom("action_state")
      .select(["key", "value"])
      .where("account_id", "=", values.account_id)
      .where("component_key", "=", values.component_key),
  { reusePlan: true },
);

const upsertStepState = prepared(
  (creator, values: { workflow_id: string; step: string; key: string; value: string }) =>
    creator
      .insertInto("workflow_step_state")
      .columns(["workflow_id", "step", "key", "value"])
      .expression((eb) =>
        eb
          .selectFrom("workflows")
          .select([
            "workflows.id",
            eb.val(values.step).as("step"),
            eb.val(values.key).as("key"),
            eb.val(values.value).as("value"),
          ])
          .where("workflows.id", "=", values.workflow_id),
      )
      .onConflict((conflict) =>
        conflict
          .columns(["workflow_id", "step", "key"])
          .doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })),
      ),
  { reusePlan: true },
);

const upsertActionState = prepared(
  (creator, values: { account_id: string; component_key: string; key: string; value: string }) =>
    creator
      .insertInto("action_state")
      .columns(["account_id", "component_key", "key", "value"])
      .expression((eb) =>
        eb
          .selectFrom("accounts")
          .select([
            "accounts.id",
            eb.val(values.component_key).as("component_key"),
            eb.val(values.key).as("key"),
            eb.val(values.value).as("value"),
          ])
          .where("accounts.id", "=", values.account_id),
      )
      .onConflict((conflict) =>
        conflict
          .columns(["account_id", "component_key", "key"])
          .doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })),
      ),
  { reusePlan: true },
);
