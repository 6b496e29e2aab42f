/**
 * The prompts that need the server: an app prop (pick one of your connected accounts of the app,
 * or connect a new one: its fields for a keys app, the browser flow for an OAuth app) and a prop
 * whose options come from the component (`POST /v1/components/configure`, page by page, with a
 * search for a prop with `useQuery`).
 */
import { isCancel, password, select, text } from "@clack/prompts";
import { appsApi } from "../client/apps-client.js";
import type { SluiceClient } from "../client/client.js";
import type { ConfigurableProp } from "../client/types.js";
import { followOAuthConnection } from "./oauth-connect.js";
import { UsageError } from "./output.js";
import type { ConfiguredProps } from "./props.js";

/** What the dynamic prompts need: the server, the component's id, and the props given so far. */
export interface PromptContext {
  readonly client: SluiceClient;
  /** The component to configure: a saved component id (sc_…) or a key. */
  readonly componentId: string;
  readonly configured: ConfiguredProps;
}

const NEW_ACCOUNT = "\u0000new";
const MORE = "\u0000more";
const SEARCH = "\u0000search";

function answered<T>(value: T): Exclude<T, symbol> {
  if (isCancel(value)) throw new UsageError("Cancelled; nothing was changed.");
  return value as Exclude<T, symbol>;
}

export async function promptForAppProp(prop: ConfigurableProp, context: PromptContext): Promise<unknown> {
  const output = process.stderr;
  const slug = String(prop.app ?? "");
  const api = appsApi(context.client);
  const accounts = (await api.listConnectedAccounts({ app: slug, limit: 100 })).data;
  const choice = answered(
    await select<string>({
      message: `${prop.label ?? prop.name}: a ${slug} account`,
      output,
      options: [
        ...accounts.map((account) => ({
          value: account.id,
          label: `${account.name} (${account.id})${account.healthy ? "" : " — unhealthy"}`,
        })),
        { value: NEW_ACCOUNT, label: `Connect a new ${slug} account` },
      ],
    }),
  );
  if (choice !== NEW_ACCOUNT) return { authProvisionId: choice };
  const app = await api.getApp(slug);
  if (app.auth_type === "oauth") {
    const started = await api.startOAuthConnection({ app: slug });
    output.write(`Open this URL in a browser to connect ${slug}:\n\n  ${started.authorize_url}\n\n`);
    const connected = await followOAuthConnection(api, started);
    return { authProvisionId: connected };
  }
  const fields: Record<string, string> = {};
  if (app.fields === null) {
    output.write(
      `${slug} is not a registered app: enter its credentials as name=value, an empty line to finish.\n`,
    );
    for (;;) {
      const pair = answered(await text({ message: "field (name=value)", output })).trim();
      if (pair === "") break;
      const at = pair.indexOf("=");
      if (at < 1) continue;
      fields[pair.slice(0, at)] = pair.slice(at + 1);
    }
  } else {
    for (const field of app.fields) {
      const value = answered(
        await (field.secret ? password : text)({
          message: `${field.label ?? field.name}${field.optional ? " (optional)" : ""}`,
          output,
          validate: (typed) => (field.optional || typed ? undefined : "a value is required"),
        }),
      );
      if (value) fields[field.name] = value;
    }
  }
  const created = await api.createConnectedAccount({ app: slug, fields });
  output.write(`Connected ${slug}: ${created.id}\n`);
  return { authProvisionId: created.id };
}

/** One value from the component's own options, fetched page by page. */
export async function promptForRemoteOptions(
  prop: ConfigurableProp,
  context: PromptContext,
): Promise<unknown> {
  const output = process.stderr;
  const api = appsApi(context.client);
  const message = prop.label ?? prop.name;
  let query: string | undefined;
  for (;;) {
    if (prop.useQuery === true && query === undefined) {
      query = answered(await text({ message: `${message}: search (empty for all)`, output })) ?? "";
    }
    let page = 0;
    let prevContext: unknown;
    const shown: { value: unknown; label: string }[] = [];
    for (;;) {
      const answer = await api.configure({
        id: context.componentId,
        prop_name: prop.name,
        configured_props: context.configured,
        page,
        ...(prevContext === undefined ? {} : { prev_context: prevContext }),
        ...(query ? { query } : {}),
      });
      if (answer.errors.length > 0) throw new UsageError(`${prop.name}: ${answer.errors.join("; ")}`);
      for (const option of answer.stringOptions ?? []) shown.push({ value: option, label: option });
      for (const option of answer.options ?? []) shown.push({ value: option.value, label: option.label });
      const next = (answer.context as { nextPageToken?: unknown } | null | undefined)?.nextPageToken;
      const indexes = shown.map((option, index) => ({ value: String(index), label: option.label }));
      const extra = [
        ...(next !== undefined && next !== null ? [{ value: MORE, label: "More…" }] : []),
        ...(prop.useQuery === true ? [{ value: SEARCH, label: "Search again…" }] : []),
      ];
      if (indexes.length === 0 && extra.length === 0) {
        return answered(
          await text({ message: `${message} (the component offers no options: type a value)`, output }),
        );
      }
      const picked = answered(await select<string>({ message, output, options: [...indexes, ...extra] }));
      if (picked === MORE) {
        page += 1;
        prevContext = answer.context;
        continue;
      }
      if (picked === SEARCH) {
        query = undefined;
        break;
      }
      return shown[Number(picked)]?.value;
    }
  }
}
