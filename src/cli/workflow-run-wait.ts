/** Waiting for a queued workflow run to end, by polling `GET /v1/workflow_runs/{id}`. */
import type { SluiceClient } from "../client/client.js";
import type { WorkflowRun } from "../client/types.js";

const POLL_MS = 200;

export function isFinished(run: WorkflowRun): boolean {
  return run.status !== "queued" && run.status !== "running";
}

/** The run once it has ended, or as it stands after `timeoutSeconds`. */
export async function waitForRun(
  client: SluiceClient,
  queued: WorkflowRun,
  timeoutSeconds: number,
): Promise<WorkflowRun> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let run = queued;
  while (!isFinished(run) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    run = await client.getWorkflowRun(run.id);
  }
  return run;
}
