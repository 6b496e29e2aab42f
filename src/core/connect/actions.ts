/**
 * Running an action for a Connect end user (`POST …/actions/run`): the component is the end
 * user's own copy, app props name the end user's connected accounts, and the answer has
 * Pipedream's shape: `{exports, os, ret}`, where `os` holds the console lines and, when the action
 * failed, its error (the run itself answers 200, as Pipedream's does).
 */
import type { InvocationResult } from "../../runtime/sandbox/sandbox.js";
import { runAction } from "../actions/actions.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError } from "../errors.js";
import { componentForEndUser } from "./components.js";
import type { EndUser } from "./end-users.js";
import type { Project } from "./projects.js";

export interface RunActionInput {
  readonly id?: unknown;
  readonly version?: unknown;
  readonly configured_props?: unknown;
  readonly dynamic_props_id?: unknown;
  readonly stash_id?: unknown;
}

export function observationsOf(result: InvocationResult) {
  const lines: Record<string, unknown>[] = result.logs.map((line) => ({
    ts: line.ts,
    k: `console.${line.level}`,
    msg: line.message,
  }));
  if (!result.ok && result.failure) {
    const [name, ...rest] = result.failure.message.split(": ");
    const named = rest.length > 0 && /^[A-Za-z]*Error$/.test(name ?? "");
    lines.push({
      ts: Date.now(),
      k: "error",
      err: {
        name: named ? name : "Error",
        message: named ? rest.join(": ") : result.failure.message,
        ...(result.failure.stack === undefined ? {} : { stack: result.failure.stack }),
      },
    });
  }
  return lines;
}

export async function runConnectAction(
  context: CoreContext,
  project: Project,
  endUser: EndUser,
  input: RunActionInput,
) {
  if (
    input.stash_id !== undefined &&
    input.stash_id !== null &&
    input.stash_id !== "" &&
    input.stash_id !== false
  ) {
    throw new InvalidInputError("stash_id (File Stash) is not supported by Sluice", "unsupported");
  }
  const component = await componentForEndUser(
    context,
    project.accountId,
    endUser.accountId,
    input.id,
    input.version,
    "action",
  );
  const run = await runAction(context, context.sender, endUser.accountId, {
    component_id: component.id,
    configured_props: input.configured_props,
    dynamic_props_id: input.dynamic_props_id,
  });
  const { result } = run;
  return {
    exports: {
      ...(result.exports ?? {}),
      ...(result.summary === undefined ? {} : { $summary: result.summary }),
    },
    os: observationsOf(result),
    ret: result.returnValue ?? null,
    stash_id: null,
  };
}
