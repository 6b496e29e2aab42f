/**
 * The runnable sources this node has read for its endpoints and timers, so that a request to a
 * source's endpoint (or a tick) reads nothing from the database before its invocation (no join, no JSON parse of the
 * definition, no unsealing of the props). What changes a source's runnable form (a deploy's
 * update, activation, deletion) calls `forgetRunnables` after its commit: this node drops every
 * entry at once, and every other node when the notifier tells it (LISTEN/NOTIFY on PostgreSQL;
 * after a lost connection every listener is woken, so a missed notice drops the cache too).
 * Between another node's commit and the notice (milliseconds), a request there may still run
 * with the previous configuration, as it could with a read that came just before the commit.
 */
import type { Store } from "../store/store.js";
import type { CoreContext } from "./context.js";
import { loadRunnable, type RunnableSource } from "./invoker.js";

const TOPIC = "runnable-sources:changed";
/** Entries kept; past it the least recently used go. A node with more busy endpoints reads again. */
const MAX_ENTRIES = 10_000;

interface RunnableCache {
  /** By `e:<endpoint id>` and `s:<source id>`, least recently used first. */
  readonly entries: Map<string, RunnableSource>;
  /** Bumped on every change: a read that began before one is not kept. */
  generation: number;
}

const caches = new WeakMap<Store, RunnableCache>();

function cacheOf(store: Store): RunnableCache {
  let cache = caches.get(store);
  if (!cache) {
    const created: RunnableCache = { entries: new Map(), generation: 0 };
    store.notifier.subscribe(TOPIC, () => {
      created.generation++;
      created.entries.clear();
    });
    caches.set(store, created);
    cache = created;
  }
  return cache;
}

async function cachedRunnable(
  context: CoreContext,
  key: string,
  load: () => Promise<RunnableSource | null>,
): Promise<RunnableSource | null> {
  const cache = cacheOf(context.store);
  const cached = cache.entries.get(key);
  if (cached) {
    // Most recently used last, so the oldest is the first to go.
    cache.entries.delete(key);
    cache.entries.set(key, cached);
    return cached;
  }
  const generation = cache.generation;
  const source = await load();
  // Not found is not kept: a source deployed a moment later must be found at once.
  if (source && generation === cache.generation) {
    if (cache.entries.size >= MAX_ENTRIES) {
      cache.entries.delete(cache.entries.keys().next().value as string);
    }
    cache.entries.set(key, source);
  }
  return source;
}

/** The source listening at the endpoint, from this node's cache or the database; null when none does. */
export function runnableAtEndpoint(context: CoreContext, endpointId: string): Promise<RunnableSource | null> {
  return cachedRunnable(context, `e:${endpointId}`, () => loadRunnable(context, { endpointId }));
}

/** The source by id (a timer's tick), from this node's cache or the database; null when there is none. */
export function runnableById(context: CoreContext, id: string): Promise<RunnableSource | null> {
  return cachedRunnable(context, `s:${id}`, () => loadRunnable(context, { id }));
}

/** Call after committing a change to a source's configuration, activity or existence. */
export function forgetRunnables(context: CoreContext): void {
  // Subscribed before publishing, so this node's own cache is dropped too.
  cacheOf(context.store);
  context.store.notifier.publish(TOPIC);
}
