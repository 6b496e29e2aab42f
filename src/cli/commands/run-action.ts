/**
 * `sluice run-action FILE|KEY|URL`: runs an action once on the server and prints what it did — its
 * return value, exports, summary, logs, response, flow exit and sends. A local file is bundled
 * (relative imports) and saved first; a key runs the latest published version (or `KEY@VERSION`).
 * The exit code is 1 when the action failed.
 */
import fs from "node:fs";
import type { Command } from "commander";
import type { ActionRunParams, ActionRunResult, Component } from "../../client/types.js";
import { saveFile } from "../component-target.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { printJson, UsageError } from "../output.js";
import { askForMissingProps } from "../prompt-props.js";
import { configuredPropsFrom, propOptions } from "../props.js";
import { withSpinner } from "../terminal.js";

interface RunActionFlags extends ApiCommandOptions {
  prop?: string[];
  propsFile?: string;
  stepsFile?: string;
  timeout?: string;
  dynamicPropsId?: string;
}

const URL_TARGET = /^https?:\/\//i;
const FILE_LIKE = /[\\/]|\.[cm]?[jt]sx?$/i;

export function registerRunAction(program: Command): void {
  apiOptions(
    propOptions(
      program
        .command("run-action <action>")
        .description(
          "run an action once: a local file (its relative imports are bundled), a published key (KEY or KEY@VERSION), or an http(s) URL",
        ),
      "action",
    )
      .option("--steps-file <file>", "a JSON object passed to run({ steps }): earlier steps' results")
      .option("--timeout <seconds>", "longest the run may take, in seconds (1-900; default 30)"),
  ).action(async (target: string, options: RunActionFlags) => {
    const { client } = clientFor(options);
    const given = configuredPropsFrom(options.prop, options.propsFile);
    const action = await actionOf(client, target);
    const params: ActionRunParams = {
      configured_props: action.component
        ? { ...given, ...(await askForMissingProps(client, action.component, given)) }
        : given,
      ...(options.stepsFile === undefined ? {} : { steps: readSteps(options.stepsFile) }),
      ...(options.timeout === undefined ? {} : { timeout_seconds: timeoutSeconds(options.timeout) }),
      ...(options.dynamicPropsId === undefined ? {} : { dynamic_props_id: options.dynamicPropsId }),
      ...action.target,
    };
    const result = await withSpinner("Running", () => client.runAction(params));
    if (options.json) printJson(result);
    else printRun(result);
    if (!result.ok) process.exitCode = 1;
  });
}

/** How the request names the action. */
async function actionOf(
  client: ReturnType<typeof clientFor>["client"],
  target: string,
): Promise<{
  target: Pick<ActionRunParams, "component_id" | "component_url" | "key">;
  /** The saved component of a local file (its props can be asked for). */
  component?: Component;
}> {
  if (URL_TARGET.test(target)) return { target: { component_url: target } };
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new UsageError(`${target} is a directory; give the action's file`);
  if (stat?.isFile()) {
    const component = await saveFile(client, target);
    return { target: { component_id: component.id }, component };
  }
  if (FILE_LIKE.test(target) && !target.includes("@")) throw new UsageError(`No such file: ${target}`);
  return { target: { key: target } };
}

/** The run as readable lines: return value, exports, summary, sends, logs and any error. */
export function printRun(result: ActionRunResult): void {
  const out: string[] = [];
  const name = result.component_key
    ? `${result.component_key}@${result.component_version ?? "?"}`
    : result.component_id;
  out.push(
    result.ok
      ? `${name}: ok in ${result.duration_ms} ms`
      : `${name}: failed in ${result.duration_ms} ms (${result.failure?.reason ?? "error"})`,
  );
  if (result.summary !== null) out.push(`Summary: ${result.summary}`);
  if (result.ok) out.push("Return value:", indent(pretty(result.return_value)));
  const exported = Object.entries(result.exports);
  if (exported.length > 0) {
    out.push("Exports:");
    for (const [key, value] of exported) out.push(indent(`${key}: ${pretty(value)}`));
  }
  if (result.flow_exit) {
    out.push(`Flow exit: ${result.flow_exit.reason ?? "(no reason)"} — a workflow would end after this step`);
  }
  if (result.respond) {
    out.push(`Respond: ${result.respond.status}${result.respond.immediate ? " (immediate)" : ""}`);
    out.push(indent(pretty(result.respond.body)));
  }
  if (result.sends.length > 0) {
    out.push("Sends:");
    for (const send of result.sends) out.push(indent(`${send.kind}${target(send.input)}: ${outcome(send)}`));
  }
  if (result.logs.length > 0) {
    out.push("Logs:");
    for (const line of result.logs) out.push(indent(`[${line.level}] ${line.message}`));
  }
  if (result.failure) out.push("Error:", indent(result.failure.stack ?? result.failure.message));
  process.stdout.write(`${out.join("\n")}\n`);
}

function target(input: Record<string, unknown>): string {
  if (typeof input.url === "string") return ` ${String(input.method ?? "")} ${input.url}`;
  if (typeof input.subject === "string") return ` "${input.subject}"`;
  if (typeof input.channel === "string") return ` ${input.channel}`;
  return "";
}

function outcome(send: ActionRunResult["sends"][number]): string {
  const { ok, status, error, message_id: messageId, recorded } = send.outcome;
  if (!ok) return `failed: ${error ?? `status ${status}`}`;
  if (status !== undefined) return `sent (${status})`;
  if (messageId !== undefined) return `sent (${messageId})`;
  return recorded ? "recorded" : "ok";
}

function pretty(value: unknown): string {
  if (value === undefined || value === null) return "(none)";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function readSteps(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--steps-file ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--steps-file ${file} must hold a JSON object, such as {"trigger": {"event": {}}}`);
  }
  return parsed as Record<string, unknown>;
}

function timeoutSeconds(text: string): number {
  if (!/^\d+$/.test(text.trim()))
    throw new UsageError(`--timeout takes whole seconds (1-900), got '${text}'`);
  return Number(text);
}
