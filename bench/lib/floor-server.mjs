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
import http from "node:http";
import path from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

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
  const port = Number(process.argv[2]);
  const dataDir = process.argv[3];
  const parts = new Set((process.env.FLOOR_PARTS ?? "ipc,db").split(",").filter(Boolean));
  const commit = parts.has("db")
    ? committer(dataDir)
    : parts.has("dbworker")
      ? workerCommitter(dataDir)
      : (item) => item.respond();
  const handOver = parts.has("ipc") ? runner(commit) : commit;

  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
      } catch {
        response.writeHead(400).end();
        return;
      }
      handOver({
        body,
        respond: (error) => {
          if (error) return response.writeHead(500).end();
          response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
          response.end('{"success":true}');
        },
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(port, "127.0.0.1");
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
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

/** Group commit: what arrives while a commit and its flush run goes in the next one. */
function committer(dataDir) {
  const { insertAll, wal } = openDatabase(dataDir);
  let pending = [];
  let busy = false;
  const run = () => {
    if (busy || pending.length === 0) return;
    busy = true;
    const batch = pending;
    pending = [];
    setImmediate(() => {
      insertAll(batch.map((item) => item.event ?? item.body));
      fs.fdatasync(wal, (error) => {
        for (const item of batch) item.respond(error);
        busy = false;
        run();
      });
    });
  };
  return (item) => {
    pending.push(item);
    run();
  };
}

/** Group commit with the connection on a worker thread: one message a batch each way. */
function workerCommitter(dataDir) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { dataDir } });
  let pending = [];
  let batch = [];
  let busy = false;
  let scheduled = false;
  const run = () => {
    scheduled = false;
    if (busy || pending.length === 0) return;
    busy = true;
    batch = pending;
    pending = [];
    worker.postMessage({ events: batch.map((item) => item.event ?? item.body) });
  };
  worker.on("message", ({ error }) => {
    for (const item of batch) item.respond(error);
    busy = false;
    run();
  });
  return (item) => {
    pending.push(item);
    if (busy || scheduled) return;
    scheduled = true;
    setImmediate(run);
  };
}
