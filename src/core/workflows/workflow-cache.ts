/**
 * The workflows this node has read for their runs, so a request to a workflow's endpoint and the
 * run it starts read neither the workflow nor its steps' components from the database. Every change
 * calls `forgetWorkflows` after its commit (core/node-cache.ts). A step's component is pinned by
 * id and a saved component never changes, so it is kept with the workflow.
 */
import { getComponent, type SavedComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import type { NodeCache, NodeCaches } from "../node-cache.js";
import { loadWorkflow, WORKFLOWS_CHANGED_TOPIC, type Workflow, workflowAtEndpoint } from "./workflows.js";

/** Entries kept; past it the least recently used go. */
const MAX_ENTRIES = 1_000;

/** This node's workflows and the steps' components read for each; the core context owns one. */
export class WorkflowCache {
  readonly workflows: NodeCache<Workflow>;
  /** The steps' components read for a workflow as loaded: gone with it when the cache drops it. */
  private readonly components = new WeakMap<Workflow, Map<string, SavedComponent>>();

  constructor(caches: NodeCaches) {
    this.workflows = caches.get<Workflow>(WORKFLOWS_CHANGED_TOPIC, MAX_ENTRIES);
  }

  /** The step components kept for the workflow as loaded, by component id. */
  componentsOf(workflow: Workflow): Map<string, SavedComponent> {
    let read = this.components.get(workflow);
    if (!read) {
      read = new Map();
      this.components.set(workflow, read);
    }
    return read;
  }
}

const workflows = (context: CoreContext) => context.workflowCache.workflows;

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
  const read = context.workflowCache.componentsOf(workflow);
  const kept = read.get(componentId);
  if (kept) return kept;
  const component = await getComponent(context, workflow.accountId, componentId);
  read.set(componentId, component);
  return component;
}
