/** How workflows and their runs print: table columns, and one run step by step. */
import type { ActionSendReport, Workflow, WorkflowRun, WorkflowRunStep } from "../client/types.js";
import { type Column, formatTime } from "./output.js";
import { triggerLabel } from "./workflow-changes.js";

export const workflowColumns: readonly Column<Workflow>[] = [
  ["id", (workflow) => workflow.id],
  ["name", (workflow) => workflow.name],
  ["trigger", (workflow) => triggerLabel(workflow)],
  ["steps", (workflow) => workflow.steps.map((step) => step.name).join(", ")],
  ["active", (workflow) => workflow.active],
  ["endpoint_url", (workflow) => workflow.endpoint_url],
  ["updated", (workflow) => formatTime(workflow.updated_at)],
];

export const runColumns: readonly Column<WorkflowRun>[] = [
  ["id", (run) => run.id],
  ["status", (run) => run.status],
  ["created", (run) => formatTime(Math.floor(run.created_at_ms / 1000))],
  ["duration", (run) => duration(run.duration_ms)],
  ["steps", (run) => run.steps.map((step) => `${step.name}:${step.status}`).join(" ")],
  ["outcome", (run) => outcome(run)],
];

/** The workflow as a key/value table shows it. */
export function workflowRecord(workflow: Workflow): object {
  return {
    id: workflow.id,
    name: workflow.name,
    active: workflow.active,
    trigger: triggerLabel(workflow),
    endpoint_url: workflow.endpoint_url,
    steps: workflow.steps.map((step) => `${step.name} (${componentOf(step)})`).join(", "),
    concurrency: workflow.concurrency,
    retries: workflow.retries,
    ...(workflow.retry_timeouts ? { retry_timeouts: true } : {}),
    timeout_seconds: workflow.timeout_seconds,
    updated_at: formatTime(workflow.updated_at),
  };
}

/** A run as readable lines: its outcome, then each step's result, logs and error. */
export function runText(run: WorkflowRun): string {
  const out: string[] = [];
  const replay = run.replay_of ? `, a replay of ${run.replay_of}` : "";
  const attempts = run.attempts > 1 ? `, ${run.attempts} attempts` : "";
  out.push(
    `Run ${run.id} of ${run.workflow_id}: ${run.status} in ${duration(run.duration_ms)}${attempts}${replay}`,
  );
  for (const step of run.steps) out.push(...stepLines(step));
  if (run.sends.length > 0) {
    out.push("Sends:");
    for (const send of run.sends) out.push(indent(sendLine(send)));
  }
  if (run.error) out.push(`Failed at step ${run.error.step}: ${run.error.message}`);
  if (run.exit) out.push(`Exited at step ${run.exit.step}: ${run.exit.reason ?? "(no reason)"}`);
  // The history says more than the status only once the run waited or was retried.
  if (run.history.some((entry) => entry.event !== "attempt")) {
    out.push("History:");
    for (const entry of run.history) out.push(indent(historyLine(entry)));
  }
  if (run.wait) {
    const until = formatTime(Math.floor(run.wait.until_ms / 1000));
    const then = run.wait.kind === "suspend" ? "cancelled at" : "goes on at";
    out.push(`${waitLabel(run.wait)}; ${then} ${until} unless resumed or cancelled first.`);
    out.push(
      `Resume it with: sluice workflows resume-run ${run.id}   Cancel it with: sluice workflows cancel-run ${run.id}`,
    );
  }
  return `${out.join("\n")}\n`;
}

type RunWaitView = NonNullable<WorkflowRun["wait"]>;
type RunHistoryView = WorkflowRun["history"][number];

function waitLabel(wait: RunWaitView): string {
  const how = {
    delay: "paused by $.flow.delay",
    suspend: "suspended",
    rerun: "waiting to rerun",
    retry: "waiting for a retry",
  };
  return `${how[wait.kind ?? "delay"]} at step ${wait.step ?? "?"}`;
}

function historyLine(entry: RunHistoryView): string {
  const at = formatTime(Math.floor(entry.at_ms / 1000));
  const step = entry.step ? ` at step ${entry.step}` : "";
  const cause = entry.cause ? ` (${entry.cause})` : "";
  const until = entry.until_ms === undefined ? "" : ` until ${formatTime(Math.floor(entry.until_ms / 1000))}`;
  return `${at} ${entry.event}${step}${cause}${until}`;
}

function stepLines(step: WorkflowRunStep): string[] {
  const lines = [`- ${step.name}: ${step.status} in ${duration(step.duration_ms)}`];
  if (step.summary) lines.push(indent(`Summary: ${step.summary}`));
  if (step.status === "success" && step.return_value !== undefined && step.return_value !== null) {
    const text = pretty(step.return_value);
    if (text.includes("\n")) lines.push(indent("Return value:"), indent(text, 4));
    else lines.push(indent(`Return value: ${text}`));
  }
  const exported = Object.entries(step.exports ?? {});
  if (exported.length > 0) {
    lines.push(indent("Exports:"));
    for (const [name, value] of exported) lines.push(indent(`${name}: ${pretty(value)}`, 4));
  }
  if (step.flow_exit) lines.push(indent(`Flow exit: ${step.flow_exit.reason ?? "(no reason)"}`));
  if (step.logs.length > 0) {
    lines.push(indent("Logs:"));
    for (const log of step.logs) lines.push(indent(`[${log.level}] ${log.message}`, 4));
  }
  if (step.error) lines.push(indent("Error:"), indent(step.error.stack ?? step.error.message, 4));
  return lines;
}

/** One `$.send.*` call and what became of it: `http POST https://…: sent (200)`. */
function sendLine(send: ActionSendReport): string {
  const { input, outcome: result } = send;
  const target =
    typeof input.url === "string"
      ? ` ${String(input.method ?? "")} ${input.url}`
      : typeof input.channel === "string"
        ? ` ${input.channel}`
        : "";
  if (!result.ok) return `${send.kind}${target}: failed: ${result.error ?? `status ${result.status}`}`;
  if (result.status !== undefined) return `${send.kind}${target}: sent (${result.status})`;
  return `${send.kind}${target}: ${result.recorded ? "recorded" : "sent"}`;
}

function outcome(run: WorkflowRun): string {
  if (run.wait) return `${waitLabel(run.wait)} until ${formatTime(Math.floor(run.wait.until_ms / 1000))}`;
  if (run.error) return `${run.error.step}: ${run.error.message}`;
  if (run.exit) return `exit at ${run.exit.step}${run.exit.reason ? `: ${run.exit.reason}` : ""}`;
  return run.replay_of ? `replay of ${run.replay_of}` : "";
}

function componentOf(step: Workflow["steps"][number]): string {
  return step.component_key ? `${step.component_key}@${step.component_version ?? "?"}` : step.component_id;
}

function duration(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "-" : `${Math.round(ms)} ms`;
}

/** Text as it is; JSON on one line when it is short, else indented. */
function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  const line = JSON.stringify(value);
  return line.length <= 100 ? line : JSON.stringify(value, null, 2);
}

function indent(text: string, spaces = 2): string {
  const pad = " ".repeat(spaces);
  return text
    .split("\n")
    .map((line) => pad + line)
    .join("\n");
}
