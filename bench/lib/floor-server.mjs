/**
 * The floor: the least a server can do and still keep Sluice's two promises for an HTTP source,
 * written without any of Sluice. Each request's JSON body is
 *   - `ipc`: handed to a child process (a stand-in for the sandboxed runner) and back, the
 *     requests of one event-loop turn in one message, each run's emit and its end as two messages
 *     back (as Sluice's runner sends them);
 *   - `db`: inserted into SQLite (WAL, synchronous=NORMAL) with a group commit, then the log
 *     flushed with fdatasync on the thread pool before the 200 goes out (what Sluice's
 *     durability is);
 *   - `dbworker`: the same commit with the connection on a worker thread, a batch one message;
 * with FLOOR_PARTS naming the parts kept ("ipc,db" by default, "" is the bare server). It is
 * what Sluice's ingest cannot beat on the same machine: its ratio to bare node:http says how far
 * the target of a ratio to bare is reachable at all, and Sluice's ratio to it what is left to win.
 * Usage: node bench/lib/floor-server.mjs PORT DATA_DIR
 */
import { fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { serveJson } from "./json-server.mjs";

if (!isMainThread) {
  // `dbworker`: the connection on a worker thread; each batch comes as one message and its
  // answer goes back once the batch is committed and the log flushed.
  const { insertAll, wal } = openDatabase(workerData.dataDir);
  parentPort.on("message", ({ events }) => {
    try {
      insertAll(events);
      fs.fdatasyncSync(wal);
      parentPort.postMessage({});
    } catch (error) {
      parentPort.postMessage({ error: String(error) });
    }
  });
} else if (process.argv[2] === "--child") {
  // The runner's stand-in: runs each invocation (a no-op) and answers with its emit and its end.
  process.on("message", (message) => {
    for (const { id, body } of message.invokes) {
      process.send({ type: "emit", id, event: body });
      process.send({ type: "done", id });
    }
  });
} else {
  const dataDir = process.argv[3];
  const parts = new Set((process.env.FLOOR_PARTS ?? "ipc,db").split(",").filter(Boolean));
  const commit = parts.has("db")
    ? groupCommit(inProcessWrite(dataDir))
    : parts.has("dbworker")
      ? groupCommit(workerWrite(dataDir))
      : (item) => item.respond();
  const handOver = parts.has("ipc") ? runner(commit) : commit;
  serveJson(Number(process.argv[2]), (body, respond) => handOver({ body, respond }));
}

/** A child process each item goes through: one message per turn there, two per item back. */
function runner(next) {
  const child = fork(new URL(import.meta.url).pathname, ["--child"], { serialization: "json" });
  const waiting = new Map();
  let queued = [];
  let nextId = 0;
  child.on("message", (message) => {
    const item = waiting.get(message.id);
    if (message.type === "emit") item.event = message.event;
    else {
      waiting.delete(message.id);
      next(item);
    }
  });
  process.on("exit", () => child.kill());
  return (item) => {
    const id = nextId++;
    waiting.set(id, item);
    if (queued.push({ id, body: item.body }) > 1) return;
    setImmediate(() => {
      child.send({ type: "invoke_batch", invokes: queued });
      queued = [];
    });
  };
}

/** The floor's table and its batch insert, in a database of `dataDir`. */
function openDatabase(dataDir) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "floor.db");
  const database = new Database(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.exec(
    "CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, source TEXT NOT NULL, ts INTEGER NOT NULL, body TEXT NOT NULL)",
  );
  const insert = database.prepare("INSERT INTO events (source, ts, body) VALUES (?, ?, ?)");
  const insertAll = database.transaction((items) => {
    for (const event of items) insert.run("src_floor", Date.now(), JSON.stringify(event));
  });
  return { insertAll, wal: fs.openSync(`${file}-wal`, "r") };
}

/**
 * Group commit: the items of a turn are written together by `write(events)` (a promise), and
 * what arrives while a write runs goes in the next one; each item is answered once its write is done.
 */
function groupCommit(write) {
  let pending = [];
  let busy = false;
  let scheduled = false;
  const run = async () => {
    scheduled = false;
    if (busy || pending.length === 0) return;
    busy = true;
    const batch = pending;
    pending = [];
    const error = await write(batch.map((item) => item.event ?? item.body)).then(
      () => undefined,
      (failure) => failure,
    );
    for (const item of batch) item.respond(error);
    busy = false;
    run();
  };
  return (item) => {
    pending.push(item);
    if (busy || scheduled) return;
    scheduled = true;
    setImmediate(run);
  };
}

/** The events inserted on this thread, then the log flushed with fdatasync on the thread pool. */
function inProcessWrite(dataDir) {
  const { insertAll, wal } = openDatabase(dataDir);
  return async (events) => {
    insertAll(events);
    await new Promise((resolve, reject) => fs.fdatasync(wal, (error) => (error ? reject(error) : resolve())));
  };
}

/** The same on a worker thread owning the connection: one message a batch each way. */
function workerWrite(dataDir) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { dataDir } });
  let settle = () => {};
  worker.on("message", ({ error }) => settle(error));
  return (events) =>
    new Promise((resolve, reject) => {
      settle = (error) => (error ? reject(new Error(error)) : resolve());
      worker.postMessage({ events });
    });
}
