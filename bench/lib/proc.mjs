/**
 * Memory of processes read from Linux's /proc: a process's RSS (VmRSS in /proc/<pid>/status)
 * and PSS (/proc/<pid>/smaps_rollup, which splits shared pages between the processes sharing
 * them, so PSS adds up honestly across a process tree), and a process's descendants.
 */
import fs from "node:fs";

const MB = 1024 * 1024;

/** The kB value of `field` in a /proc file, in bytes; undefined if the file or field is missing. */
function readKb(file, field) {
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
  return match ? Number(match[1]) * 1024 : undefined;
}

/** { rssMb, pssMb } of one process (pssMb undefined where smaps_rollup is unreadable). */
export function processMemory(pid) {
  const rss = readKb(`/proc/${pid}/status`, "VmRSS");
  const pss = readKb(`/proc/${pid}/smaps_rollup`, "Pss");
  return { rssMb: rss === undefined ? undefined : rss / MB, pssMb: pss === undefined ? undefined : pss / MB };
}

/** The parent pid of every live process. */
function parents() {
  const map = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name (2nd field) is in parentheses and may contain spaces: parse after it.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      map.set(Number(entry), Number(fields[1]));
    } catch {
      // The process exited while we looked.
    }
  }
  return map;
}

/** Every descendant pid of `pid` (children, their children, …). */
export function descendants(pid) {
  const parentOf = parents();
  const found = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [];
    for (const [child, parent] of parentOf) if (frontier.includes(parent)) next.push(child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** A process's command line, its arguments joined by spaces ("" once it is gone). */
export function commandLine(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return "";
  }
}

/**
 * The memory of a process and of its descendants, summed, with their count; descendants whose
 * command line `isRunner` accepts are also summed apart (a Sluice server's other child is the
 * esbuild service its compiler keeps running).
 */
export function treeMemory(pid, isRunner = () => true) {
  const self = processMemory(pid);
  const all = descendants(pid).map((child) => ({
    ...processMemory(child),
    runner: isRunner(commandLine(child)),
  }));
  const total = (list) => ({
    count: list.length,
    rssMb: list.reduce((sum, memory) => sum + (memory.rssMb ?? 0), 0),
    pssMb: list.reduce((sum, memory) => sum + (memory.pssMb ?? 0), 0),
  });
  return { self, children: total(all), runners: total(all.filter((child) => child.runner)) };
}

/** CPU time (user + system) a process has used so far, in ms; 0 once it is gone. */
export function processCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are the 14th and 15th fields (12th and 13th after the name), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU ms of a server and of its descendants (runners), to subtract two readings: the work a
 * request costs, which a busy machine slows down but does not change as it does throughput.
 */
export function treeCpuMs(pid) {
  let children = 0;
  for (const child of descendants(pid)) children += processCpuMs(child);
  return { server: processCpuMs(pid), children };
}

/**
 * The machine's CPU time so far, in clock ticks, from the first line of /proc/stat: all of it,
 * and the part the hypervisor gave to other guests while this one wanted to run (steal). Null
 * where /proc/stat is unreadable.
 */
export function machineCpuTicks() {
  try {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1, 9);
    const ticks = fields.map(Number);
    return { total: ticks.reduce((sum, tick) => sum + tick, 0), steal: ticks[7] ?? 0 };
  } catch {
    return null;
  }
}

/**
 * The share of the machine's CPU time stolen by the host between two readings (0 to 1), or null.
 * On a shared VM this is what makes the same code run slower from one run to the next.
 */
export function stealShare(before, after) {
  if (!before || !after || after.total <= before.total) return null;
  return (after.steal - before.steal) / (after.total - before.total);
}

/** CPU ms used so far by every process whose command name is `name` (every `postgres` process, say). */
export function cpuMsOfProcessesNamed(name) {
  let total = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let command;
    try {
      command = fs.readFileSync(`/proc/${entry}/comm`, "utf8").trim();
    } catch {
      continue; // The process exited while we looked.
    }
    if (command === name) total += processCpuMs(entry);
  }
  return total;
}
