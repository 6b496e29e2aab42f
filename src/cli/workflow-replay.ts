/**
 * `sluice workflows replay`'s flags and its bulk form: a `wr_` id replays one run (from a step with
 * --from-step or --from-failed-step); a workflow (`p_` id or name) replays the runs its filter
 * flags match, paced by the server (`POST /v1/workflows/{id}/replays`), or counts them (--dry-run).
 */
import type { Command } from "commander";
import type { SluiceClient } from "../client/client.js";
import type { WorkflowReplay, WorkflowReplayParams, WorkflowReplayStart } from "../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "./context.js";
import { printJson, printRecord, UsageError } from "./output.js";
import { workflowIdOf } from "./workflow-target.js";

export interface ReplayFlags extends ApiCommandOptions {
  fromStep?: string;
  fromFailedStep?: boolean;
  failed?: boolean;
  status?: string;
  failedStep?: string;
  since?: string;
  until?: string;
  all?: boolean;
  dryRun?: boolean;
  maxInFlight?: string;
}

/** Flags that pick the runs of a bulk replay, by their names on the command line. */
const FILTER_FLAGS = ["failed", "status", "failedStep", "since", "until", "all"] as const;
const BULK_FLAGS = [...FILTER_FLAGS, "dryRun", "maxInFlight"] as const;

export function replayOptions(command: Command): Command {
  return command
    .option(
      "--from-step <name>",
      "run from this step on, reusing the original's outcomes of the steps before it",
    )
    .option(
      "--from-failed-step",
      "run from the step that failed, reusing the outcomes of the steps before it",
    )
    .option("--failed", "(a workflow) replay its failed runs")
    .option("--status <statuses>", "(a workflow) replay its runs with these statuses, comma-separated")
    .option("--failed-step <name>", "(a workflow) only runs that failed at this step")
    .option("--since <time>", "(a workflow) only runs created at or after this time (ISO 8601 or epoch ms)")
    .option("--until <time>", "(a workflow) only runs created at or before this time")
    .option("--all", "(a workflow) replay all its runs")
    .option("--dry-run", "(a workflow) only count the runs it would replay")
    .option("--max-in-flight <count>", "(a workflow) its replays queued or running at once at most (1-100)");
}

/** True when `target` names one run (`wr_…`) rather than a workflow. */
export function isRunId(target: string): boolean {
  return /^wr_/.test(target);
}

/** Where a replay of one run starts; a usage error for the flags of a bulk replay. */
export function replayStartOf(options: ReplayFlags): WorkflowReplayStart {
  const bulk = BULK_FLAGS.find((flag) => options[flag] !== undefined);
  if (bulk !== undefined) {
    throw new UsageError(
      `--${kebab(bulk)} is for replaying a workflow's runs; a wr_ id replays that one run`,
    );
  }
  return startOf(options);
}

function startOf(options: ReplayFlags): WorkflowReplayStart {
  if (options.fromStep !== undefined && options.fromFailedStep) {
    throw new UsageError("Pass --from-step or --from-failed-step, not both");
  }
  if (options.fromStep !== undefined) return { from_step: options.fromStep };
  return options.fromFailedStep ? { from_failed_step: true } : {};
}

/** Replays (or counts, with --dry-run) the runs of workflow `ref` that the filter flags match. */
export async function replayWorkflowRuns(
  client: SluiceClient,
  ref: string,
  options: ReplayFlags,
): Promise<void> {
  if (options.fromStep !== undefined) {
    throw new UsageError(
      "--from-step replays one run (a wr_ id); for a workflow's runs, use --from-failed-step",
    );
  }
  if (!FILTER_FLAGS.some((flag) => options[flag] !== undefined)) {
    throw new UsageError(
      "Say which runs to replay: --failed, --status, --failed-step, --since or --until (or --all for every run)",
    );
  }
  if (options.failed && options.status !== undefined) {
    throw new UsageError("--failed is --status error: pass one of them");
  }
  const params = replayParams(options);
  const workflowId = await workflowIdOf(client, ref);
  const answer = await client.replayWorkflowRuns(workflowId, params);
  if (options.json) return printJson(answer);
  const from = options.fromFailedStep ? " from their failed step" : "";
  if (!("id" in answer)) {
    process.stdout.write(`${answer.total} run(s) of ${ref} would be replayed${from}.\n`);
    return;
  }
  const bulk = answer as WorkflowReplay;
  printRecord(
    options,
    replayRecord(bulk),
    `Replaying ${bulk.total} run(s) of ${ref}${from}, at most ${bulk.max_in_flight} at once. ` +
      `Follow it with: sluice workflows replay-status ${ref} ${bulk.id}`,
  );
}

function replayParams(options: ReplayFlags): WorkflowReplayParams {
  const status = options.failed ? "error" : options.status;
  const maxInFlight = options.maxInFlight === undefined ? undefined : Number(options.maxInFlight);
  if (
    maxInFlight !== undefined &&
    !(Number.isInteger(maxInFlight) && maxInFlight >= 1 && maxInFlight <= 100)
  ) {
    throw new UsageError(`--max-in-flight takes a count from 1 to 100, got '${options.maxInFlight}'`);
  }
  return {
    filter: {
      ...(status === undefined ? {} : { status }),
      ...(options.failedStep === undefined ? {} : { failed_step: options.failedStep }),
      ...(options.since === undefined ? {} : { since: options.since }),
      ...(options.until === undefined ? {} : { until: options.until }),
    },
    ...(options.fromFailedStep ? { from_failed_step: true } : {}),
    ...(options.dryRun ? { dry_run: true } : {}),
    ...(maxInFlight === undefined ? {} : { max_in_flight: maxInFlight }),
  };
}

/** `sluice workflows replay-status WF REPLAY_ID`: a bulk replay's progress. */
export function addReplayStatusCommand(workflows: Command): void {
  apiOptions(
    workflows
      .command("replay-status <workflow> <replay>")
      .description("show how far a bulk replay of a workflow's runs got (its rp_ id)"),
  ).action(async (ref: string, replayId: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const bulk = await client.getWorkflowReplay(await workflowIdOf(client, ref), replayId);
    printRecord(options, options.json ? bulk : replayRecord(bulk));
  });
}

function replayRecord(bulk: WorkflowReplay): object {
  return {
    id: bulk.id,
    status: bulk.status,
    total: bulk.total,
    queued: bulk.queued,
    "in flight": bulk.in_flight,
    done: bulk.done,
    skipped: bulk.skipped,
    "max in flight": bulk.max_in_flight,
  };
}

function kebab(flag: string): string {
  return flag.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
