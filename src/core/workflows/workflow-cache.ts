/**
 * The workflows this node has read for their runs, so a request to a workflow's endpoint and the
 * run it starts read neither the workflow nor its steps' components from the database. Every change
 * calls `forgetWorkflows` after its commit (core/node-cache.ts). A step's component is pinned by
 * id and a saved component never changes, so it is kept with the workflow's entry.
 */
import { getComponent, type SavedComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { loadWorkflow, WORKFLOWS_CHANGED_TOPIC, type Workflow, workflowAtEndpoint } from "./workflows.js";

/** Entries kept; past it the least recently used go. */
const MAX_ENTRIES = 1_000;

/** A workflow as this node keeps it for runs: with its steps' components read so far, by id. */
export interface RunnableWorkflow extends Workflow {
  readonly stepComponents: Map<string, SavedComponent>;
}

const workflows = (context: CoreContext) =>
  context.caches.get<RunnableWorkflow>(WORKFLOWS_CHANGED_TOPIC, MAX_ENTRIES);

const runnable = (workflow: Workflow | null): RunnableWorkflow | null =>
  workflow && { ...workflow, stepComponents: new Map() };

/** The workflow listening at the endpoint, from this node's cache or the database; null when none does. */
export function runnableWorkflowAtEndpoint(
  context: CoreContext,
  endpointId: string,
): Promise<RunnableWorkflow | null> {
  return workflows(context).get(`e:${endpointId}`, async () =>
    runnable(await workflowAtEndpoint(context, endpointId)),
  );
}

/** The workflow at the endpoint if this node holds it, reading nothing (undefined when it does not). */
export function cachedWorkflowAtEndpoint(
  context: CoreContext,
  endpointId: string,
): RunnableWorkflow | undefined {
  return workflows(context).peek(`e:${endpointId}`);
}

/** The workflow by id (a run's), from this node's cache or the database; null when there is none. */
export function runnableWorkflow(context: CoreContext, id: string): Promise<RunnableWorkflow | null> {
  return workflows(context).get(`w:${id}`, async () => runnable(await loadWorkflow(context, id)));
}

/** A step's component (pinned by its id), read once for the workflow as loaded. */
export async function stepComponent(
  context: CoreContext,
  workflow: RunnableWorkflow,
  componentId: string,
): Promise<SavedComponent> {
  const kept = workflow.stepComponents.get(componentId);
  if (kept) return kept;
  const component = await getComponent(context, workflow.accountId, componentId);
  workflow.stepComponents.set(componentId, component);
  return component;
}
