/**
 * The two accounts of the property suite, each owning one of every kind of resource the API has:
 * API keys, webhooks (one subscribed, with delivered deliveries), an HTTP source with configured
 * and secret props, events and log lines, a source that answers its callers itself, an action
 * published in two versions, an HTTP-triggered workflow with a run and an event. A is only ever read (its snapshot); B takes the random requests, and
 * is provisioned again whenever they have deleted part of it.
 */
import { randomBytes } from "node:crypto";
import { appsApi } from "../../src/client/apps-client.js";
import type { SluiceClient } from "../../src/client/client.js";
import { waitUntil } from "../support/webhook-delivery.js";

/** Every id and name of one account's resources, by the kind of path parameter that takes it. */
export interface ResourceIds {
  readonly webhook: string[];
  readonly apiKey: string[];
  /** Source ids and name slugs (both name a source in a path). */
  readonly source: string[];
  readonly delivery: string[];
  /** Component ids and keys. */
  readonly component: string[];
  /** Published keys, bare and with a version. */
  readonly published: string[];
  readonly endpoint: string[];
  readonly event: string[];
  readonly subscription: string[];
  readonly workflow: string[];
  readonly workflowRun: string[];
  /** Registered app slugs (the account's own). */
  readonly app: string[];
  /** Connected accounts (apn_…). */
  readonly connectedAccount: string[];
  /** Data stores (ds_…). */
  readonly dataStore: string[];
  /** Package imports (imp_…). */
  readonly registryImport: string[];
  /** Connect projects (proj_…). */
  readonly project: string[];
  /** The external id of the project's end user (production environment). */
  readonly externalUser: string[];
  /** The end user's connected accounts (apn_…). */
  readonly endUserAccount: string[];
  /** The end user's deployed triggers (dc_…). */
  readonly trigger: string[];
  /** Connect tokens: A's is spent (it connected the account); B's is live. */
  readonly connectToken: string[];
  /** OAuth clients (ocl_…). */
  readonly oauthClient: string[];
}

export type IdKind = keyof ResourceIds;

export interface AccountFixture {
  readonly name: string;
  readonly accountId: string;
  /** The key requests are sent with (B) or snapshots are read with (A). */
  readonly apiKey: string;
  readonly client: SluiceClient;
  readonly ids: ResourceIds;
  /** Strings only this account's data holds (its event tag, prop values, a secret): they must not reach the other. */
  readonly markers: string[];
  /** The signing secrets of its webhooks. */
  readonly secrets: string[];
  /** The account's main key's id, whose last_used_at moves with every request it makes. */
  readonly mainKeyId: string;
  readonly spareKeyId: string;
  /** Single resources by role, for requests that start out valid. */
  readonly named: {
    readonly emitter: string;
    readonly echo: string;
    readonly emitterComponent: string;
    readonly actionComponent: string;
    readonly actionKey: string;
    readonly subscribedWebhook: string;
    readonly spareWebhook: string;
    readonly events: readonly string[];
    readonly workflow: string;
    /** The published source the Connect project deploys as a trigger. */
    readonly triggerKey: string;
    /** Published components with dynamic props (dynamicCode). */
    readonly dynamicAction: string;
    readonly dynamicTrigger: string;
    readonly oauthClient: string;
    readonly oauthClientSecret: string;
  };
}

/** A published HTTP source for the Connect project: what its end user deploys as a trigger. */
export function triggerCode(key: string, tag: string): string {
  return `export default {
  key: "${key}",
  version: "0.0.1",
  name: "trigger ${tag}",
  type: "source",
  props: { http: { type: "$.interface.http" }, label: { type: "string", optional: true } },
  async run(event) { this.$emit({ tag: "${tag}" }); },
};`;
}

/** A source with an HTTP interface, a plain prop and a secret one; it emits on every request, and never throws. */
export function emitterCode(marker: string): string {
  return `export default {
  name: "property emitter ${marker}",
  props: {
    http: { type: "$.interface.http" },
    db: "$.service.db",
    label: { type: "string" },
    token: { type: "string", secret: true },
    o: { type: "object", optional: true },
  },
  async run(event) {
    // Passes the caller's text on to logs, the db and $emit's meta, as real sources do.
    const sent = event && typeof event.body === "object" && event.body !== null ? event.body : {};
    const body = { ...(event ? event.query : {}), ...sent };
    const text = (value) => (typeof value === "string" ? value : undefined);
    console.log("emitting for", this.label, text(body.log) ?? "");
    if (text(body.kv) !== undefined) this.db.set(body.kv, body.n ?? null);
    const meta = { name: text(body.channel), id: text(body.id), summary: text(body.summary) };
    this.$emit({ tag: "${marker}", n: typeof body.n === "number" ? body.n : 0 }, meta);
  },
};`;
}

/** A source that answers each request itself, with a small summary of it; it never throws. */
export const ECHO_SOURCE = `export default {
  name: "property echo",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    const bytes = event && typeof event.bodyRaw === "string" ? event.bodyRaw.length : 0;
    await this.http.respond({ status: 200, body: { method: event ? event.method : null, bytes } });
  },
};`;

/** A publishable action; its key carries the account's marker. */
export function actionCode(key: string, version: string): string {
  return `export default {
  key: "${key}",
  name: "property action",
  version: "${version}",
  type: "action",
  props: { greeting: { type: "string", optional: true }, a: { type: "any", optional: true } },
  async run({ steps, $ }) {
    $.export("$summary", "greeted");
    return { greeting: this.greeting ?? null, steps: steps ? Object.keys(steps).length : 0 };
  },
};`;
}

/** A publishable action with the description the public registry asks for. */
export function publicActionCode(key: string, version: string): string {
  return actionCode(key, version).replace(
    'name: "property action",',
    'name: "property action",\n  description: "greets",',
  );
}

/**
 * A published component with dynamic props: a prop with an options method that reloads the props,
 * and additionalProps. What the configure and props routes need to answer.
 */
export function dynamicCode(key: string, type: "action" | "source"): string {
  return `export default {
  key: "${key}",
  version: "0.0.1",
  name: "dynamic ${type}",
  type: "${type}",
  props: {
    label: { type: "string", optional: true, reloadProps: true, async options() { return ["one", "two"]; } },
  },
  async additionalProps() { return { extra: { type: "string", optional: true } }; },
  async run() { return 1; },
};`;
}

export interface AccountHandle {
  readonly id: string;
  readonly apiKey: string;
  readonly client: SluiceClient;
}

/** Gives the account one of everything and returns its ids; `receiver` is where its webhooks deliver. */
export async function provision(
  account: AccountHandle,
  name: string,
  receiver: string,
): Promise<AccountFixture> {
  const { client } = account;
  // Independent random strings: B sending one of A's names must not make another look sent.
  const random = () => randomBytes(6).toString("hex");
  const marker = `mk${name}${random()}`;
  const tag = `tag${name}${random()}`;
  const labelValue = `label${name}${random()}`;
  const secretValue = `secret${name}${random()}`;
  const me = await client.me();
  const keys = await client.listApiKeys();
  const mainKeyId = keys.find((key) => account.apiKey.startsWith(key.prefix))?.id ?? keys[0]?.id ?? "";
  const spare = await client.createApiKey(`spare ${marker}`);

  const subscribed = await client.createWebhook({
    url: `${receiver}/${name}`,
    name: `subscribed ${marker}`,
    description: `delivers ${marker}`,
  });
  const limited = await client.request<{ data: { id: string; signing_secret: string } }>(
    "POST",
    "/v1/webhooks",
    { body: { url: `${receiver}/${name}/limited`, name: `limited ${marker}`, rate_limit: 5 } },
  );

  const emitter = await client.deploySource({
    component_code: emitterCode(tag),
    name: `emitter ${marker}`,
    configured_props: { label: labelValue, token: secretValue },
  });
  const echo = await client.deploySource({ component_code: ECHO_SOURCE, name: `echo ${marker}` });
  const subscription = await client.subscribe({ emitter_id: emitter.id, listener_id: subscribed.id });

  for (const [n, channel] of [
    [1, undefined],
    [2, "orders"],
  ] as const) {
    const response = await fetch(emitter.endpoint_url ?? "", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n, channel }),
    });
    if (response.status !== 200) throw new Error(`emitting into ${emitter.id}: ${await response.text()}`);
  }
  await client.runSource(emitter.id);
  const deliveries = await waitUntil(
    `the deliveries of ${name}'s webhook`,
    async () => {
      const page = await client.listDeliveries(subscribed.id, { limit: 100 });
      return page.data.length === 3 && page.data.every((delivery) => delivery.status === "delivered")
        ? page.data
        : undefined;
    },
    20_000,
  );
  const events = await client.listEvents(emitter.id, { limit: 100 });

  const actionKey = `${marker}-act`;
  const action = await client.saveComponent({ component_code: actionCode(actionKey, "0.0.1") });
  await client.publishComponent({ component_id: action.id });
  await client.publishComponent({ component_code: actionCode(actionKey, "0.0.2") });

  // A workflow (HTTP-triggered, with an expression), one finished run, and an event it emitted.
  const workflow = await client.createWorkflow({
    name: `flow ${marker}`,
    trigger: { http: {} },
    steps: [
      {
        name: "echo",
        code: `export default { name: "echo ${marker}", type: "action", props: { v: { type: "any", optional: true } },
          async run({ $ }) { $.send.emit({ raw_event: { seen: this.v ?? null, tag: "${tag}" } }); return "${tag}"; } }`,
        props: { v: "{{steps.trigger.event.body}}" },
      },
    ],
  });
  const triggered = await fetch(workflow.endpoint_url ?? "", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ n: 1 }),
  });
  const runId = triggered.headers.get("x-sluice-run-id") ?? "";
  await waitUntil(
    `the first run of ${name}'s workflow`,
    async () => (await client.getWorkflowRun(runId)).status === "success",
    20_000,
  );

  // An app of its own and a connected account of it, whose field is a secret.
  const appSlug = `app${random()}`;
  const appSecret = `appsecret${name}${random()}`;
  await appsApi(client).registerApp({
    slug: appSlug,
    auth_type: "keys",
    fields: [{ name: "token", secret: true }],
  });
  const connected = await appsApi(client).createConnectedAccount({
    app: appSlug,
    name: `conn ${marker}`,
    fields: { token: appSecret },
  });

  const store = await client.request<{ data: { id: string } }>("POST", "/v1/data_stores", {
    body: { name: `store ${marker}` },
  });
  await client.request("PUT", `/v1/data_stores/${store.data.id}/records/k`, { body: { value: tag } });

  const imported = await client.request<{ data: { id: string; status: string } }>(
    "POST",
    "/v1/registry/imports",
    {
      body: { files: { [`actions/${marker}-imp/${marker}-imp.mjs`]: actionCode(`${marker}-imp`, "0.0.1") } },
    },
  );
  // Finished before the snapshots of the account are taken, which would otherwise see it change.
  for (let job = imported.data; job.status === "running"; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    job = (await client.request<typeof imported>("GET", `/v1/registry/imports/${imported.data.id}`)).data;
  }
  // Pipedream Connect: a project whose end user has a connected account and a deployed trigger,
  // a connect token (A's spent, B's live) and an OAuth client.
  const triggerKey = `${marker}-trg`;
  const dynamicAction = `${marker}-dyn`;
  const dynamicTrigger = `${marker}-dyn-trg`;
  await Promise.all([
    client.publishComponent({ component_code: triggerCode(triggerKey, tag) }),
    client.publishComponent({ component_code: dynamicCode(dynamicAction, "action") }),
    client.publishComponent({ component_code: dynamicCode(dynamicTrigger, "source") }),
  ]);
  const project = await client.request<{ id: string }>("POST", "/v1/connect/projects", {
    body: { name: `project ${marker}` },
  });
  const externalUser = `eu${name}${random()}`;
  const inProject = `/v1/connect/${project.id}`;
  const newToken = () =>
    client.request<{ token: string }>("POST", `${inProject}/tokens`, {
      body: { external_user_id: externalUser },
    });
  const spentToken = await newToken();
  const endUserAccount = await client.request<{ id: string }>("POST", `${inProject}/accounts`, {
    body: {
      app_slug: appSlug,
      cfmap_json: JSON.stringify({ token: appSecret }),
      connect_token: spentToken.token,
    },
  });
  const trigger = await client.request<{ data: { id: string } }>("POST", `${inProject}/triggers/deploy`, {
    body: { id: triggerKey, external_user_id: externalUser, configured_props: { label: labelValue } },
  });
  const liveToken = name === "a" ? spentToken : await newToken();
  const oauthClient = await client.request<{ data: { client_id: string; client_secret: string } }>(
    "POST",
    "/v1/oauth_clients",
    { body: { name: `client ${marker}` } },
  );

  return {
    name,
    accountId: me.id,
    apiKey: account.apiKey,
    client,
    mainKeyId,
    spareKeyId: spare.id,
    named: {
      emitter: emitter.id,
      echo: echo.id,
      emitterComponent: emitter.component_id,
      actionComponent: action.id,
      actionKey,
      subscribedWebhook: subscribed.id,
      spareWebhook: limited.data.id,
      events: events.data.map((event) => event.id),
      workflow: workflow.id,
      triggerKey,
      dynamicAction,
      dynamicTrigger,
      oauthClient: oauthClient.data.client_id,
      oauthClientSecret: oauthClient.data.client_secret,
    },
    markers: [tag, labelValue, secretValue, appSlug, appSecret, externalUser],
    secrets: [
      subscribed.signing_secret,
      limited.data.signing_secret,
      oauthClient.data.client_secret,
      liveToken.token,
    ],
    ids: {
      webhook: [subscribed.id, limited.data.id],
      apiKey: [spare.id],
      source: [emitter.id, echo.id, emitter.name_slug, echo.name_slug],
      delivery: deliveries.map((delivery) => delivery.id),
      component: [action.id, emitter.component_id, echo.component_id, actionKey],
      published: [actionKey, `${actionKey}@0.0.1`, `${actionKey}@0.0.2`],
      endpoint: [emitter.endpoint_url, echo.endpoint_url, workflow.endpoint_url].map(
        (url) => new URL(url ?? "").pathname.split("/")[2] ?? "",
      ),
      event: events.data.map((event) => event.id),
      subscription: [subscription.id],
      workflow: [workflow.id],
      workflowRun: [runId],
      app: [appSlug],
      connectedAccount: [connected.id],
      dataStore: [store.data.id],
      registryImport: [imported.data.id],
      project: [project.id],
      externalUser: [externalUser],
      endUserAccount: [endUserAccount.id],
      trigger: [trigger.data.id],
      connectToken: [liveToken.token],
      oauthClient: [oauthClient.data.client_id],
    },
  };
}

/** True when every resource of the fixture is still there as provisioned (random requests may delete or change B's). */
export async function isIntact(fixture: AccountFixture): Promise<boolean> {
  const { client, ids } = fixture;
  try {
    const [webhooks, sources, published, keys, subscriptions, workflows] = await Promise.all([
      Promise.all(ids.webhook.map((id) => client.getWebhook(id))),
      Promise.all(ids.source.slice(0, 2).map((id) => client.getSource(id))),
      Promise.all(ids.published.map((ref) => client.getPublished(ref))),
      client.listApiKeys(),
      client.listSubscriptions({ limit: 100 }),
      Promise.all(ids.workflow.map((id) => client.getWorkflow(id))),
      Promise.all(ids.delivery.map((id) => client.getDelivery(id))),
      Promise.all(ids.workflowRun.map((id) => client.getWorkflowRun(id))),
      Promise.all(ids.connectedAccount.map((id) => appsApi(client).getConnectedAccount(id))),
      Promise.all(ids.dataStore.map((id) => client.request("GET", `/v1/data_stores/${id}/records/k`))),
    ]);
    const inProject = `/v1/connect/${ids.project[0]}`;
    const user = encodeURIComponent(ids.externalUser[0] ?? "");
    const [trigger, , clients, token] = await Promise.all([
      client.request<{ data: { active: boolean } }>(
        "GET",
        `${inProject}/deployed-triggers/${ids.trigger[0]}?external_user_id=${user}`,
      ),
      client.request("GET", `${inProject}/accounts/${ids.endUserAccount[0]}`),
      client.request<{ data: { client_id: string }[] }>("GET", "/v1/oauth_clients"),
      client.request<{ success: boolean }>("GET", `/v1/connect/tokens/${ids.connectToken[0]}/validate`),
    ]);
    return (
      trigger.data.active &&
      clients.data.some((item) => item.client_id === ids.oauthClient[0]) &&
      token.success &&
      webhooks.every((webhook) => webhook.active) &&
      sources.every(
        (source, n) => source.active && source.endpoint_url?.includes(ids.endpoint[n] ?? "?") === true,
      ) &&
      published.length === ids.published.length &&
      keys.some((key) => key.id === fixture.spareKeyId) &&
      subscriptions.data.some((subscription) => subscription.id === ids.subscription[0]) &&
      workflows.every((workflow) => workflow.active)
    );
  } catch {
    return false;
  }
}
