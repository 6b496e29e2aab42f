/**
 * Which workflow a command means: `WF` is a `p_` id or a workflow's name, found in the account's
 * list (names are unique in an account, which is what lets `deploy` update by name).
 */
import type { SluiceClient } from "../client/client.js";
import type { Workflow } from "../client/types.js";
import { UsageError } from "./output.js";

/** The workflow of the account named `name`, if any; pages through the whole list. */
export async function findWorkflowByName(client: SluiceClient, name: string): Promise<Workflow | undefined> {
  let after: string | undefined;
  for (;;) {
    const page = await client.listWorkflows({ limit: 100, after });
    const found = page.data.find((workflow) => workflow.name === name);
    if (found) return found;
    const cursor = page.page_info.end_cursor;
    if (page.data.length < 100 || !cursor) return undefined;
    after = cursor;
  }
}

/** The `p_` id of `ref` (an id is used as it is; a name is looked up). */
export async function workflowIdOf(client: SluiceClient, ref: string): Promise<string> {
  if (/^p_/.test(ref)) return ref;
  const found = await findWorkflowByName(client, ref);
  if (!found) throw new UsageError(`No workflow named '${ref}'. List them with: sluice workflows list`);
  return found.id;
}
