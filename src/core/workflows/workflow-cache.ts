/**
 * The workflows this node has read for their runs, so a request to a workflow's endpoint and the
 * run it starts read neither the workflow nor its steps' components from the database. Every change
 * calls `forgetWorkflows` after its commit (core/node-cache.ts). A step's component is pinned by
 * id and a saved component never changes, so it is kept with the workflow.
 */
import { getComponent, type SavedComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { nodeCache } from "../node-cache.js";
import { loadWorkflow, WORKFLOWS_CHANGED_TOPIC, type Workflow, workflowAtEndpoint } from "./workflows.js";

/** Entries kept; past it the least recently used go. */
const MAX_ENTRIES = 1_000;

const workflows = (context: CoreContext) =>
  nodeCache<Workflow>(context.store, WORKFLOWS_CHANGED_TOPIC, MAX_ENTRIES);

/** The steps' components read for a workflow as loaded: gone with it when the cache drops it. */
const components = new WeakMap<Workflow, Map<string, SavedComponent>>();

/** The workflow listening at the endpoint, from this node's cache or the database; null when none does. */
export function runnableWorkflowAtEndpoint(
  context: CoreContext,
  endpointId: string,
): Promise<Workflow | null> {
  return workflows(context).get(`e:${endpointId}`, () => workflowAtEndpoint(context, endpointId));
}

/** The workflow at the endpoint if this node holds it, reading nothing (undefined when it does not). */
export function cachedWorkflowAtEndpoint(context: CoreContext, endpointId: string): Workflow | undefined {
  return workflows(context).peek(`e:${endpointId}`);
}

/** The workflow by id (a run's), from this node's cache or the database; null when there is none. */
export function runnableWorkflow(context: CoreContext, id: string): Promise<Workflow | null> {
  return workflows(context).get(`w:${id}`, () => loadWorkflow(context, id));
}

/** A step's component (pinned by its id), read once for the workflow as loaded. */
export async function stepComponent(
  context: CoreContext,
  workflow: Workflow,
  componentId: string,
): Promise<SavedComponent> {
  let read = components.get(workflow);
  const kept = read?.get(componentId);
  if (kept) return kept;
  const component = await getComponent(context, workflow.accountId, componentId);
  if (!read) {
    read = new Map();
    components.set(workflow, read);
  }
  read.set(componentId, component);
  return component;
}
