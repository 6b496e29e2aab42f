/**
 * `sluice workflows …`: deploy a workflow document (YAML or JSON; deploying the same name again
 * updates it, keeping its p_ id and endpoint), list, read, pause, resume and delete workflows, list
 * their runs (by status too), run one by hand, replay a run (from a step) or many of a workflow's
 * (workflow-replay.ts). `WF` is a workflow's `p_` id or its name.
 */
import type { Command } from "commander";
import { ApiError, type SluiceClient } from "../../client/client.js";
import type { Workflow, WorkflowParams, WorkflowRun } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor, parseCount } from "../context.js";
import { printJson, printOutcome, printRecord, UsageError } from "../output.js";
import { listCommand, type PageFlags } from "../paging.js";
import { withSpinner } from "../terminal.js";
import { workflowChanges } from "../workflow-changes.js";
import { readWorkflowFile } from "../workflow-document.js";
import { runColumns, runText, workflowColumns, workflowRecord } from "../workflow-output.js";
import {
  addReplayStatusCommand,
  isRunId,
  type ReplayFlags,
  replayOptions,
  replayStartOf,
  replayWorkflowRuns,
} from "../workflow-replay.js";
import { workflowRequest } from "../workflow-request.js";
import { isFinished, waitForRun } from "../workflow-run-wait.js";
import { findWorkflowByName, workflowIdOf } from "../workflow-target.js";

interface RunFlags extends ApiCommandOptions {
  event?: string;
  wait: boolean;
  waitTimeout: string;
}

export function registerWorkflows(program: Command): void {
  const workflows = program.command("workflows").description("deploy and run multi-step workflows");

  apiOptions(
    workflows
      .command("deploy <file>")
      .description("deploy a workflow document (YAML or JSON); the same name again updates it"),
  ).action(async (file: string, options: ApiCommandOptions) => {
    const document = readWorkflowFile(file);
    const { client } = clientFor(options);
    const body = await withSpinner("Bundling the workflow's files", () => workflowRequest(client, document));
    const { workflow, note } = await withSpinner("Deploying", () => deploy(client, body, file));
    if (options.json) {
      printJson(workflow);
      process.stderr.write(`${note}\n`);
    } else {
      printRecord(options, workflowRecord(workflow), note);
    }
  });

  listCommand(
    workflows.command("list").description("list the account's workflows, newest first"),
    "100",
    async (options) => {
      const { client } = clientFor(options);
      return {
        page: await client.listWorkflows({ limit: parseCount(options.limit), after: options.after }),
        columns: workflowColumns,
        empty: "No workflows yet. Deploy one with: sluice workflows deploy FILE",
        next: "sluice workflows list",
      };
    },
  );

  apiOptions(workflows.command("get <workflow>").description("show a workflow (by p_ id or name)")).action(
    async (ref: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      const workflow = await client.getWorkflow(await workflowIdOf(client, ref));
      printRecord(options, options.json ? workflow : workflowRecord(workflow));
    },
  );

  addRunCommands(workflows);
  addWaitCommands(workflows);
  addActivationCommands(workflows);

  apiOptions(
    workflows.command("delete <workflow>").description("delete a workflow (by p_ id or name)"),
  ).action(async (ref: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const deleted = await client.deleteWorkflow(await workflowIdOf(client, ref));
    printOutcome(options, deleted, `Deleted workflow ${deleted.id}`);
  });
}

/** `workflows runs`, `run` and `replay`. */
function addRunCommands(workflows: Command): void {
  listCommand(
    workflows
      .command("runs <workflow>")
      .description("list a workflow's runs, newest first")
      .option(
        "--status <statuses>",
        "only runs with this status, or these (comma-separated): error, success…",
      ),
    "20",
    async (options: PageFlags & { status?: string }, ref: string) => {
      const { client } = clientFor(options);
      const id = await workflowIdOf(client, ref);
      return {
        page: await client.listWorkflowRuns(id, {
          limit: parseCount(options.limit),
          after: options.after,
          ...(options.status === undefined ? {} : { status: options.status }),
        }),
        columns: runColumns,
        empty: `No runs of ${ref} yet. Run it with: sluice workflows run ${ref}`,
        next: `sluice workflows runs ${ref}`,
      };
    },
  );

  apiOptions(
    waitOptions(
      workflows
        .command("run <workflow>")
        .description("run a workflow now, by hand, and print each step's result")
        .option("--event <json>", "the trigger event, as JSON (steps.trigger.event); default null"),
    ),
  ).action(async (ref: string, options: RunFlags) => {
    const event = parseEvent(options.event);
    const timeout = waitSeconds(options.waitTimeout);
    const { client } = clientFor(options);
    const run = await client.runWorkflow(await workflowIdOf(client, ref), event);
    await finish(client, run, options, timeout);
  });

  apiOptions(
    waitOptions(
      replayOptions(
        workflows
          .command("replay <target>")
          .description(
            "run a workflow again with a run's trigger event (a wr_ id), or replay the runs of a workflow that the flags pick",
          ),
      ),
    ),
  ).action(async (target: string, options: RunFlags & ReplayFlags) => {
    const { client } = clientFor(options);
    if (!isRunId(target)) return replayWorkflowRuns(client, target, options);
    const start = replayStartOf(options);
    const timeout = waitSeconds(options.waitTimeout);
    await finish(client, await client.replayWorkflowRun(target, start), options, timeout);
  });
  addReplayStatusCommand(workflows);
}

/** `workflows resume-run` and `cancel-run`: the ends of a run's wait, by hand. */
function addWaitCommands(workflows: Command): void {
  apiOptions(
    waitOptions(
      workflows
        .command("resume-run <run>")
        .description("resume a paused or suspended run now (or retry a failed step waiting for its retry)")
        .option("--data <json>", "what a suspended step gets as $resume_data.body, as JSON"),
    ),
  ).action(async (runId: string, options: RunFlags & { data?: string }) => {
    const data = parseJsonOption("--data", options.data);
    const timeout = waitSeconds(options.waitTimeout);
    const { client } = clientFor(options);
    await finish(client, await client.resumeWorkflowRun(runId, data), options, timeout);
  });

  apiOptions(
    workflows
      .command("cancel-run <run>")
      .description("cancel a paused or suspended run, or one waiting for a retry"),
  ).action(async (runId: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const run = await client.cancelWorkflowRun(runId);
    printOutcome(options, run, `Cancelled run ${run.id}`);
  });
}

/** `workflows pause` and `resume`. */
function addActivationCommands(workflows: Command): void {
  for (const [verb, active, description] of [
    ["pause", false, "stop a workflow's trigger from starting runs (its endpoint answers 404)"],
    ["resume", true, "let a paused workflow's trigger start runs again"],
  ] as const) {
    apiOptions(workflows.command(`${verb} <workflow>`).description(description)).action(
      async (ref: string, options: ApiCommandOptions) => {
        const { client } = clientFor(options);
        const workflow = await client.updateWorkflow(await workflowIdOf(client, ref), { active });
        printOutcome(
          options,
          workflow,
          `Workflow ${workflow.name} (${workflow.id}) is ${active ? "active" : "paused"}`,
        );
      },
    );
  }
}

/** Creates the workflow, or updates the one of the same name; says which and what changed. */
async function deploy(
  client: SluiceClient,
  body: WorkflowParams,
  file: string,
): Promise<{ workflow: Workflow; note: string }> {
  try {
    let existing = await findWorkflowByName(client, body.name);
    if (!existing) {
      try {
        const workflow = await client.createWorkflow(body);
        return {
          workflow,
          note: `Created workflow ${workflow.name} (${workflow.id})${endpointNote(workflow)}`,
        };
      } catch (error) {
        // Created by someone else since the lookup: update it like any other redeploy.
        if (!(error instanceof ApiError && error.code === "workflow_exists")) throw error;
        existing = await findWorkflowByName(client, body.name);
        if (!existing) throw error;
      }
    }
    const workflow = await client.updateWorkflow(existing.id, body);
    const changes = workflowChanges(existing, workflow);
    const what = changes.length === 0 ? "no changes" : changes.join("; ");
    return {
      workflow,
      note: `Updated workflow ${workflow.name} (${workflow.id}): ${what}${endpointNote(workflow)}`,
    };
  } catch (error) {
    // The server's word on the document (a bad trigger, an unknown prop) is about this file.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
      throw new ApiError(error.status, error.code, `${file}: ${error.message}`);
    }
    throw error;
  }
}

/** Prints a run, after waiting for it to end unless --no-wait; a failed run fails the command. */
async function finish(
  client: SluiceClient,
  queued: WorkflowRun,
  options: RunFlags,
  timeoutSeconds: number,
): Promise<void> {
  const run = options.wait
    ? await withSpinner(`Running ${queued.id}`, () => waitForRun(client, queued, timeoutSeconds))
    : queued;
  if (options.json) printJson(run);
  else if (options.wait) process.stdout.write(runText(run));
  else process.stdout.write(`Queued run ${run.id}. See it with: sluice workflows runs ${run.workflow_id}\n`);
  if (run.status === "error") process.exitCode = 1;
  if (options.wait && !isFinished(run)) {
    process.stderr.write(`Run ${run.id} is still ${run.status} after ${timeoutSeconds} s\n`);
    process.exitCode = 1;
  }
}

function waitOptions(command: Command): Command {
  return command
    .option("--no-wait", "print the queued run and return at once")
    .option("--wait-timeout <seconds>", "how long to wait for the run to end", "60");
}

function parseEvent(text: string | undefined): unknown {
  return parseJsonOption("--event", text);
}

function parseJsonOption(flag: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} takes JSON, such as '{"id": 7}': ${(error as Error).message}`);
  }
}

function waitSeconds(text: string): number {
  const seconds = Number(text);
  if (!/^\d+$/.test(text.trim()) || seconds < 1) {
    throw new UsageError(`--wait-timeout takes whole seconds (at least 1), got '${text}'`);
  }
  return seconds;
}

/** Where the trigger listens: the workflow's endpoint, or the source deployed for it. */
function endpointNote(workflow: Workflow): string {
  if (workflow.endpoint_url) return `\nRequests to ${workflow.endpoint_url} run it.`;
  const { trigger } = workflow;
  if (trigger.type === "uses") {
    return `\nIts trigger is source ${trigger.source_id}; see its endpoint or schedule with: sluice describe ${trigger.source_id}`;
  }
  return "";
}
