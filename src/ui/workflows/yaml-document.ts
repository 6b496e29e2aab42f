/** Workflow documents as YAML (the format the CLI deploys), parsed here so a syntax error shows at once. */
import { parse, stringify } from "yaml";
import type { Workflow, WorkflowParams } from "../../client/types.js";

export class DocumentError extends Error {}

export function parseDocument(text: string): WorkflowParams {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new DocumentError(`YAML syntax error: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new DocumentError("The document must be a YAML mapping with name and steps");
  }
  return value as WorkflowParams;
}

/** A deployed workflow as a document: steps name their saved components. */
export function documentOf(workflow: Workflow): string {
  const trigger =
    workflow.trigger.type === "http"
      ? { http: { customResponse: workflow.trigger.custom_response } }
      : workflow.trigger.type === "timer"
        ? {
            timer: workflow.trigger.cron
              ? { cron: workflow.trigger.cron, timezone: workflow.trigger.timezone }
              : { intervalSeconds: workflow.trigger.interval_seconds },
          }
        : workflow.trigger.type === "source"
          ? { source: workflow.trigger.source_id, event_name: workflow.trigger.event_name ?? undefined }
          : workflow.trigger.type === "uses"
            ? { component_id: workflow.trigger.component_id }
            : null;
  return stringify({
    name: workflow.name,
    trigger,
    concurrency: workflow.concurrency,
    retries: workflow.retries,
    ...(workflow.retry_timeouts ? { retry_timeouts: true } : {}),
    timeout_seconds: workflow.timeout_seconds,
    steps: workflow.steps.map((step) => ({
      name: step.name,
      component_id: step.component_id,
      ...(Object.keys(step.props).length > 0 ? { props: step.props } : {}),
      ...(step.timeout_seconds ? { timeout_seconds: step.timeout_seconds } : {}),
    })),
  });
}
