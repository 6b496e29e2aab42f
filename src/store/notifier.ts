/**
 * Wake-ups after commit: "source dc_x has new events", "the delivery queue has work". A message
 * names a topic only; subscribers read what changed from the database, so a missed or
 * duplicated wake-up costs a query, never data. Within a process, listeners are called at once;
 * on PostgreSQL, other nodes hear of it through LISTEN/NOTIFY.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { CompiledQuery } from "kysely";
import pg from "pg";

export interface Notifier {
  /**
   * Tells every subscriber of `topic`, on this node and (on PostgreSQL) the others. Call after
   * commit. `groups` names, for this node's subscribers only, the groups of the jobs announced
   * (the webhooks of new deliveries), so that one may let pass a wake it has no use for; the
   * other nodes hear the topic alone.
   */
  publish(topic: string, groups?: readonly string[], options?: PublishOptions): void;
  /**
   * The NOTIFY that tells the other nodes of `topics`, for a caller to send in the transaction
   * that commits what they announce (PostgreSQL delivers it on commit): a round trip, and a
   * transaction of PostgreSQL's, fewer than `publish`'s own NOTIFY. The caller then publishes each
   * topic with `othersTold`. Undefined when there are no other nodes (SQLite).
   */
  noticeToOthers(topics: readonly string[]): Notice | undefined;
  /**
   * Calls `listener` on each publish to `topic`, with the publish's groups when it named them on
   * this node; returns the unsubscribe function.
   */
  subscribe(topic: string, listener: (groups?: readonly string[]) => void): () => void;
  close(): Promise<void>;
}

export interface PublishOptions {
  /** The other nodes were told in the commit's transaction (`noticeToOthers`): this node only. */
  readonly othersTold?: boolean;
}

/** A NOTIFY's arguments: `select pg_notify(channel, payload)`. */
export interface Notice {
  readonly channel: string;
  readonly payload: string;
}

/**
 * `select pg_notify(…)`: a NOTIFY of its own (a publish) or the last `SELECT` of a statement of
 * writes (store/write-together.ts). One text for both, so PostgreSQL parses one.
 */
export function notifyQuery(notice: Notice): CompiledQuery {
  return CompiledQuery.raw('select pg_notify($1, $2) as "written"', [notice.channel, notice.payload]);
}

const CHANNEL = "sluice_wakeups";
/** NOTIFY payloads are limited to 8,000 bytes; topics are ASCII. */
const MAX_PAYLOAD = 7900;

export function createLocalNotifier(): Notifier & { wakeAll(): void } {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (topic, groups) => {
      emitter.emit(topic, groups);
    },
    noticeToOthers: () => undefined,
    /** Calls every listener of every topic once. */
    wakeAll() {
      for (const topic of emitter.eventNames()) emitter.emit(topic);
    },
    subscribe(topic, listener) {
      emitter.on(topic, listener);
      return () => emitter.off(topic, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * LISTEN on a dedicated connection, reconnecting after failures; NOTIFY through `notify` (the
 * store's pool). Each node ignores its own notifications: local listeners were already called.
 * Notifications sent while the connection was down are lost, so after a reconnection every local
 * listener is woken once: each reads what it missed from the database.
 */
export function createPostgresNotifier(
  connectionString: string,
  notify: (channel: string, payload: string) => Promise<void>,
  onError: (error: Error) => void,
): Notifier {
  const local = createLocalNotifier();
  const node = randomUUID();
  let client: pg.Client | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let connectedBefore = false;

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString });
    next.on("notification", (message) => {
      const [from, ...topics] = (message.payload ?? "").split(" ");
      if (from === node) return;
      for (const topic of topics) if (topic !== "") local.publish(topic);
    });
    next.on("error", (error) => {
      onError(error);
      if (client === next) reconnect();
    });
    // A connection the server closes without an error message (an immediate shutdown) only ends.
    next.on("end", () => {
      if (client === next) reconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      if (closed) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      if (connectedBefore) local.wakeAll();
      connectedBefore = true;
    } catch (error) {
      onError(error as Error);
      await next.end().catch(() => {});
      reconnect();
    }
  };
  const reconnect = () => {
    const broken = client;
    client = undefined;
    broken?.end().catch(() => {});
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, 1000);
    retryTimer.unref();
  };
  void connect();

  // Topics published in one turn of the event loop go to the other nodes in one NOTIFY: under
  // load a commit publishes two or three, and each NOTIFY is a round trip to PostgreSQL.
  const pending = new Set<string>();
  const flush = () => {
    let payload = node;
    for (const topic of pending) {
      if (payload.length + topic.length + 1 > MAX_PAYLOAD) {
        notify(CHANNEL, payload).catch(onError);
        payload = node;
      }
      payload += ` ${topic}`;
    }
    pending.clear();
    notify(CHANNEL, payload).catch(onError);
  };

  return {
    publish(topic, groups, options) {
      local.publish(topic, groups);
      if (options?.othersTold) return;
      if (pending.size === 0) setImmediate(flush);
      pending.add(topic);
    },
    noticeToOthers(topics) {
      const payload = [node, ...topics].join(" ");
      return topics.length === 0 || payload.length > MAX_PAYLOAD ? undefined : { channel: CHANNEL, payload };
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await client?.end().catch(() => {});
      await local.close();
    },
  };
}
