/** The REST API's shapes of workflows (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { CoreContext } from "../../core/context.js";
import { maskSealed } from "../../core/sources/source-props.js";
import type { RunRecord } from "../../core/workflows/run-record.js";
import type { TriggerState } from "../../core/workflows/trigger.js";
import type { Workflow } from "../../core/workflows/workflows.js";

export function workflowView(context: CoreContext, workflow: Workflow) {
  const { trigger } = workflow.document;
  return {
    id: workflow.id,
    owner_id: workflow.accountId,
    name: workflow.name,
    active: workflow.active,
    trigger: triggerView(trigger),
    endpoint_url: workflow.endpointId === null ? null : `${context.baseUrl}/e/${workflow.endpointId}`,
    concurrency: workflow.concurrency,
    retries: workflow.retries,
    retry_timeouts: workflow.retryTimeouts,
    timeout_seconds: workflow.timeoutSeconds,
    steps: workflow.document.steps.map((step) => ({
      name: step.name,
      component_id: step.componentId,
      component_key: step.componentKey,
      component_version: step.componentVersion,
      props: maskSealed(step.props),
      ...(step.timeoutSeconds === null ? {} : { timeout_seconds: step.timeoutSeconds }),
    })),
    created_at: Math.floor(workflow.createdAt / 1000),
    updated_at: Math.floor(workflow.updatedAt / 1000),
  };
}

export function runView(run: RunRecord) {
  return {
    id: run.id,
    workflow_id: run.workflowId,
    status: run.status,
    trigger: run.trigger,
    steps: run.steps,
    sends: run.sends,
    error: run.error,
    exit: run.exit,
    attempts: run.attempts,
    history: run.history,
    wait: run.wait,
    replay_of: run.replayOf,
    created_at_ms: run.createdAt,
    started_at_ms: run.startedAt,
    finished_at_ms: run.finishedAt,
    duration_ms: run.startedAt !== null && run.finishedAt !== null ? run.finishedAt - run.startedAt : null,
  };
}

function triggerView(state: TriggerState) {
  const { trigger } = state;
  switch (trigger.type) {
    case "none":
      return { type: "none" };
    case "http":
      return { type: "http", custom_response: trigger.customResponse };
    case "timer":
      return {
        type: "timer",
        ...(trigger.schedule.intervalSeconds === undefined
          ? {}
          : { interval_seconds: trigger.schedule.intervalSeconds }),
        ...(trigger.schedule.cron === undefined ? {} : { cron: trigger.schedule.cron }),
        ...(trigger.schedule.timezone === undefined ? {} : { timezone: trigger.schedule.timezone }),
        source_id: state.sourceId,
      };
    case "source":
      return { type: "source", source_id: trigger.sourceId, event_name: trigger.eventName };
    case "uses":
      return { type: "uses", source_id: state.sourceId, component_id: trigger.componentId };
  }
}
