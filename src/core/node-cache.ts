/**
 * A cache of what this node has read for a hot path (runnable sources, the workflows runs use),
 * dropped whole on every change: the change calls `forget` after its commit, which drops this
 * node's entries at once and the others' through the notifier (a lost connection drops them too).
 * Another node may read the previous value until the notice arrives, as just before the commit.
 * Not-found is never kept, so what is created is found at once.
 */
import type { Store } from "../store/store.js";

export interface NodeCache<T> {
  /** The entry under `key`, or what `load` reads (kept unless a change came while it read). */
  get(key: string, load: () => Promise<T | null>): Promise<T | null>;
  /** The entry under `key` if this node holds it; reads nothing. */
  peek(key: string): T | undefined;
  /** Drops every entry, on this node and the others. Call after committing a change. */
  forget(): void;
}

/**
 * This node's caches, one per topic: the core context owns one, so two servers in one process
 * never share an entry.
 */
export class NodeCaches {
  private readonly byTopic = new Map<string, NodeCache<unknown>>();

  constructor(private readonly store: Store) {}

  /**
   * The cache dropped by `topic`, holding at most `maxEntries` (the least recently used go
   * first); the same one on every call for the topic.
   */
  get<T>(topic: string, maxEntries: number): NodeCache<T> {
    let cache = this.byTopic.get(topic) as NodeCache<T> | undefined;
    if (!cache) {
      cache = createCache<T>(this.store, topic, maxEntries);
      this.byTopic.set(topic, cache as NodeCache<unknown>);
    }
    return cache;
  }
}

function createCache<T>(store: Store, topic: string, maxEntries: number): NodeCache<T> {
  /** Least recently used first. */
  const entries = new Map<string, T>();
  /** Bumped on every change: a read that began before one is not kept. */
  let generation = 0;
  // Subscribed before anything is published, so this node's own changes drop it too.
  store.notifier.subscribe(topic, () => {
    generation++;
    entries.clear();
  });
  return {
    async get(key, load) {
      const cached = entries.get(key);
      if (cached !== undefined) {
        // Most recently used last, so the oldest is the first to go.
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const readFrom = generation;
      const value = await load();
      if (value !== null && readFrom === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, value);
      }
      return value;
    },
    peek: (key) => entries.get(key),
    forget: () => store.notifier.publish(topic),
  };
}
