/**
 * The runnable sources this node has read for its endpoints and timers, so that a request to a
 * source's endpoint (or a tick) reads nothing from the database before its invocation (no join,
 * no JSON parse of the definition, no unsealing of the props, no making of the runner's props).
 * What changes a source's runnable form (a deploy's update, activation, deletion) calls
 * `forgetRunnables` after its commit, which drops the cache on this node at once and on the
 * others through the notifier (core/node-cache.ts).
 */
import type { CoreContext } from "../context.js";
import { loadRunnable, type RunnableSource } from "./invoker.js";

const TOPIC = "runnable-sources:changed";
/** Entries kept; past it the least recently used go. A node with more busy endpoints reads again. */
const MAX_ENTRIES = 10_000;

const runnables = (context: CoreContext) => context.caches.get<RunnableSource>(TOPIC, MAX_ENTRIES);

/** The source listening at the endpoint, from this node's cache or the database; null when none does. */
export function runnableAtEndpoint(context: CoreContext, endpointId: string): Promise<RunnableSource | null> {
  return runnables(context).get(`e:${endpointId}`, () => loadRunnable(context, { endpointId }));
}

/** The source by id (a timer's tick), from this node's cache or the database; null when there is none. */
export function runnableById(context: CoreContext, id: string): Promise<RunnableSource | null> {
  return runnables(context).get(`s:${id}`, () => loadRunnable(context, { id }));
}

/** Call after committing a change to a source's configuration, activity or existence. */
export function forgetRunnables(context: CoreContext): void {
  runnables(context).forget();
}
