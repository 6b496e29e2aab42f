/**
 * A workflow document made into the body of `POST /v1/workflows`: a `uses:` that is a file path is
 * bundled into `code` (with its `filename`), an `sc_` id becomes `component_id`, anything else is a
 * published `key`; a trigger's `source:` may name a source. The rest is sent as written, for the
 * server to check.
 */
import fs from "node:fs";
import path from "node:path";
import { ApiError, type SluiceClient } from "../client/client.js";
import type { WorkflowParams } from "../client/types.js";
import { bundleComponentFile } from "./bundle-file.js";
import { UsageError } from "./output.js";
import { isRecord, type WorkflowFile } from "./workflow-document.js";

const FILE_PATH = /^[./]|\.[cm]?[jt]s$/i;

type ComponentRef = { code: string; filename: string } | { component_id: string } | { key: string };

export async function workflowRequest(client: SluiceClient, workflow: WorkflowFile): Promise<WorkflowParams> {
  const { document } = workflow;
  const steps = [];
  for (const [index, step] of document.steps.entries()) {
    if (step.uses === undefined || step.uses === null) {
      steps.push(step);
      continue;
    }
    const { uses, ...rest } = step;
    const context = `${workflow.where(["steps", index, "uses"])}: step '${step.name}'`;
    steps.push({ ...rest, ...(await componentRef(workflow, uses, context)) });
  }
  const trigger = await triggerRequest(client, workflow, document.trigger);
  return { ...document, ...(trigger === undefined ? {} : { trigger }), steps } as WorkflowParams;
}

async function triggerRequest(
  client: SluiceClient,
  workflow: WorkflowFile,
  trigger: unknown,
): Promise<unknown> {
  if (!isRecord(trigger)) return trigger;
  if (trigger.uses !== undefined && trigger.uses !== null) {
    const { uses, ...rest } = trigger;
    const context = `${workflow.where(["trigger", "uses"])}: the trigger`;
    return { ...rest, ...(await componentRef(workflow, uses, context)) };
  }
  if (typeof trigger.source === "string" && !trigger.source.startsWith("dc_")) {
    return {
      ...trigger,
      source: await sourceId(client, trigger.source, workflow.where(["trigger", "source"])),
    };
  }
  return trigger;
}

/** What `uses:` names, as the API's code, component_id or key. */
async function componentRef(workflow: WorkflowFile, uses: unknown, context: string): Promise<ComponentRef> {
  if (typeof uses !== "string" || uses.trim() === "") {
    throw new UsageError(`${context}: uses takes a file path, a published key or an sc_ id`);
  }
  if (uses.startsWith("sc_")) return { component_id: uses };
  if (/^https?:\/\//i.test(uses)) {
    throw new UsageError(`${context}: uses takes a file path, a published key or an sc_ id, not a URL`);
  }
  if (!FILE_PATH.test(uses)) return { key: uses };
  const file = path.resolve(workflow.dir, uses);
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat?.isDirectory())
    throw new UsageError(`${context}: ${uses} is a directory; give the component's file`);
  if (!stat?.isFile()) throw new UsageError(`${context}: no such file ${uses} (looked for ${file})`);
  try {
    const bundled = await bundleComponentFile(file);
    return { code: bundled.code, filename: bundled.filename };
  } catch (error) {
    if (error instanceof UsageError)
      throw new UsageError(`${context}: ${uses} cannot be bundled: ${error.message}`);
    throw error;
  }
}

async function sourceId(client: SluiceClient, name: string, where: string): Promise<string> {
  try {
    return (await client.getSource(name)).id;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new UsageError(`${where}: the trigger's source '${name}' is not a source of this account`);
    }
    throw error;
  }
}
