/**
 * What runs a workflow. `http`: an endpoint of its own (`/e/<id>`). `timer` and `uses`: a source
 * deployed for the workflow (owned: it goes when the workflow goes). `source`: an existing
 * source of the account. A source's events reach the workflow through a subscription row whose
 * listener is the workflow, so its commit queues the runs in the same transaction as the events.
 */
// Kysely here, not in the store: reads and writes only a workflow's subscription rows.
import type { Executor } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { newId } from "../ids.js";
import { deleteSource, deploySource, getSource, newEndpointId, updateSource } from "../sources/sources.js";
import type { TriggerSpec } from "./document.js";
import { resolveComponent } from "./steps.js";

/** The source code of the source a `timer` trigger deploys: it emits each tick. */
const TIMER_SOURCE_CODE = `export default {
  key: "sluice-workflow-timer",
  name: "Workflow timer",
  version: "0.1.0",
  type: "source",
  description: "Emits an event on each tick of its schedule, to run a workflow.",
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } },
  async run(event) {
    this.$emit(event, { summary: "tick" });
  },
};
`;

/** The trigger as stored with the workflow. */
export type StoredTrigger =
  | { readonly type: "none" }
  | { readonly type: "http"; readonly customResponse: boolean }
  | { readonly type: "timer"; readonly schedule: Record<string, unknown> }
  | { readonly type: "source"; readonly sourceId: string; readonly eventName: string | null }
  | { readonly type: "uses"; readonly componentId: string };

export interface TriggerState {
  readonly trigger: StoredTrigger;
  readonly endpointId: string | null;
  readonly sourceId: string | null;
  readonly ownsSource: boolean;
  /** Compares triggers across updates: the same fingerprint keeps the same source or endpoint. */
  readonly fingerprint: string;
}

/**
 * Sets up the trigger for workflow `workflowId`, reusing what `current` has when the trigger did
 * not change. Returns the new state; the caller stores it and then calls `retireTrigger` on the
 * old one if it differs.
 */
export async function setUpTrigger(
  context: CoreContext,
  accountId: string,
  workflow: { readonly id: string; readonly name: string },
  spec: TriggerSpec,
  current: TriggerState | null,
): Promise<TriggerState> {
  const fingerprint = JSON.stringify(spec);
  if (current && current.fingerprint === fingerprint) return current;
  switch (spec.type) {
    case "none":
      return { trigger: spec, endpointId: null, sourceId: null, ownsSource: false, fingerprint };
    case "http":
      return {
        trigger: spec,
        endpointId: current?.trigger.type === "http" ? current.endpointId : newEndpointId(),
        sourceId: null,
        ownsSource: false,
        fingerprint,
      };
    case "source": {
      await getSource(context, accountId, spec.sourceId).catch((error: unknown) => {
        if (error instanceof NotFoundError) {
          throw new InvalidInputError(
            `trigger.source: no source ${spec.sourceId} in this account`,
            "unknown_source",
          );
        }
        throw error;
      });
      return { trigger: spec, endpointId: null, sourceId: spec.sourceId, ownsSource: false, fingerprint };
    }
    case "timer": {
      const source = await deployOwned(
        context,
        accountId,
        workflow,
        {
          component_code: TIMER_SOURCE_CODE,
          configured_props: { timer: spec.schedule },
        },
        "trigger.timer",
      );
      return { trigger: spec, endpointId: null, sourceId: source, ownsSource: true, fingerprint };
    }
    case "uses": {
      const component = await resolveComponent(
        context,
        accountId,
        spec.component,
        "trigger",
        `${workflow.name} trigger`,
      );
      if (component.type !== "source") {
        throw new InvalidInputError(
          `trigger: ${component.name} is an action; a trigger uses a source (type: "source" or no type)`,
          "not_a_source",
        );
      }
      const source = await deployOwned(
        context,
        accountId,
        workflow,
        {
          component_id: component.id,
          configured_props: spec.props,
        },
        "trigger",
      );
      return {
        trigger: { type: "uses", componentId: component.id },
        endpointId: null,
        sourceId: source,
        ownsSource: true,
        fingerprint,
      };
    }
  }
}

/** Links the trigger source to the workflow (its events queue runs); replaces any earlier link. */
export async function linkTrigger(
  db: Executor,
  accountId: string,
  workflowId: string,
  state: TriggerState,
): Promise<void> {
  await db.deleteFrom("subscriptions").where("listener_id", "=", workflowId).execute();
  if (state.sourceId === null) return;
  await db
    .insertInto("subscriptions")
    .values({
      id: newId("sub"),
      account_id: accountId,
      emitter_id: state.sourceId,
      listener_id: workflowId,
      event_name: state.trigger.type === "source" ? (state.trigger.eventName ?? "") : "",
      created_at: Date.now(),
    })
    .execute();
}

/** Removes what an old trigger set up that the new one does not use (its owned source). */
export async function retireTrigger(
  context: CoreContext,
  accountId: string,
  workflowId: string,
  old: TriggerState,
  next: TriggerState | null,
): Promise<void> {
  if (!old.ownsSource || old.sourceId === null || old.sourceId === next?.sourceId) return;
  await deleteSource(context, accountId, old.sourceId, workflowId).catch((error: unknown) => {
    if (!(error instanceof NotFoundError)) throw error;
  });
}

/** Pauses or resumes the owned source with its workflow, so a paused timer does not tick. */
export async function setTriggerActive(
  context: CoreContext,
  accountId: string,
  state: TriggerState,
  active: boolean,
): Promise<void> {
  if (!state.ownsSource || state.sourceId === null) return;
  await updateSource(context, accountId, state.sourceId, { active }).catch((error: unknown) => {
    if (!(error instanceof NotFoundError)) throw error;
  });
}

async function deployOwned(
  context: CoreContext,
  accountId: string,
  workflow: { readonly id: string; readonly name: string },
  input: { component_code?: string; component_id?: string; configured_props: Record<string, unknown> },
  where: string,
): Promise<string> {
  try {
    const source = await deploySource(context, accountId, {
      ...input,
      name: `${workflow.name} (trigger of ${workflow.id})`,
    });
    return source.id;
  } catch (error) {
    if (error instanceof InvalidInputError)
      throw new InvalidInputError(`${where}: ${error.message}`, error.code);
    throw error;
  }
}
