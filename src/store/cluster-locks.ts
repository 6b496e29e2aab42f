/**
 * Locks held by one node of a cluster at a time (a source's right to run: core/sources/ownership.ts).
 * On PostgreSQL they are session advisory locks on a connection of their own: one connection
 * holds every lock the node has, a lock is never waited for on it (`pg_try_advisory_lock`, so one
 * wait cannot hold up the others), and when the node dies its connection closes and PostgreSQL
 * frees its locks at once. If that connection breaks, every lock of the node is gone: the
 * listeners of `onLost` are told, and the next `tryLock` opens a new connection.
 *
 * In the embedded mode there is one process: every lock is granted.
 */
import pg from "pg";

export interface ClusterLocks {
  /** Takes the lock for this node if no other node holds it; true when this node holds it. */
  tryLock(key: string): Promise<boolean>;
  /** Frees a lock this node holds (a no-op for one it does not). */
  unlock(key: string): Promise<void>;
  /** Calls `listener` when the node has lost every lock it held; returns the unsubscribe function. */
  onLost(listener: () => void): () => void;
  close(): Promise<void>;
}

export function createLocalLocks(): ClusterLocks {
  return {
    tryLock: async () => true,
    unlock: async () => {},
    onLost: () => () => {},
    close: async () => {},
  };
}

export function createPostgresLocks(connectionString: string, onError: (error: Error) => void): ClusterLocks {
  const lostListeners = new Set<() => void>();
  let connection: Promise<pg.Client> | undefined;
  let closed = false;
  /** The connection's queries, one at a time (pg deprecates queuing them on the client). */
  let last: Promise<unknown> = Promise.resolve();
  const query = <R extends pg.QueryResultRow>(client: pg.Client, text: string, values: unknown[]) => {
    const result = last.then(
      () => client.query<R>(text, values),
      () => client.query<R>(text, values),
    );
    last = result.catch(() => {});
    return result;
  };

  const lose = (client: pg.Client) => {
    client.end().catch(() => {});
    if (!connection) return;
    connection = undefined;
    for (const listener of lostListeners) listener();
  };

  const connect = (): Promise<pg.Client> => {
    if (closed) return Promise.reject(new Error("the store is closed"));
    if (connection) return connection;
    const client = new pg.Client({ connectionString });
    const opened = client.connect().then(() => client);
    connection = opened;
    client.on("error", (error) => {
      onError(error);
      if (connection === opened) lose(client);
    });
    client.on("end", () => {
      if (connection === opened) lose(client);
    });
    opened.catch(() => {
      if (connection === opened) connection = undefined;
    });
    return opened;
  };

  return {
    async tryLock(key) {
      const client = await connect();
      const result = await query<{ locked: boolean }>(
        client,
        "select pg_try_advisory_lock(hashtextextended($1, 0)) as locked",
        [key],
      );
      return result.rows[0]?.locked === true;
    },
    async unlock(key) {
      if (!connection) return;
      const client = await connection;
      await query(client, "select pg_advisory_unlock(hashtextextended($1, 0))", [key]);
    },
    onLost(listener) {
      lostListeners.add(listener);
      return () => lostListeners.delete(listener);
    },
    async close() {
      closed = true;
      const current = connection;
      connection = undefined;
      const client = await current?.catch(() => undefined);
      await client?.end().catch(() => {});
    },
  };
}
