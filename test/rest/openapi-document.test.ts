/**
 * The OpenAPI document is good enough to generate clients from: every operation is named, summed up
 * and lists its 4xx answers; Redocly's recommended rules find no error; and the client's wire types
 * (src/client/openapi.ts) are generated from it — `npm run generate:client-types` rewrites them.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type {
  App,
  AppField,
  AppParams,
  ConfigureResult,
  ConnectedAccount,
  OAuthSettingsParams,
  ReloadPropsResult,
} from "../../src/client/apps-client.js";
import type { ConnectProject, CreatedOAuthClient } from "../../src/client/connect-client.js";
import type {
  ActionRunParams,
  ActionRunResult,
  ActionSendReport,
  Component,
  ComponentSummary,
  ConfigurableProp,
  DeliveryWithAttempts,
  EventSummary,
  ImportJob,
  ListedComponent,
  LogEntry,
  PageInfo,
  PublicComponentDetail,
  PublishedComponent,
  PublishedComponentDetail,
  RunResult,
  Source,
  SourceParams,
  Subscription,
  Webhook,
  WebhookUpdate,
  Workflow,
  WorkflowParams,
  WorkflowRun,
  WorkflowRunStep,
  WorkflowSourceTriggerParams,
  WorkflowStepParams,
  WorkflowTrigger,
  WorkflowTriggerParams,
} from "../../src/client/types.js";
import { clientTypesSource } from "../support/client-types.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";

type Operation = { operationId?: string; summary?: string; responses?: Record<string, unknown> };
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

const sqlite = dialects.find((dialect) => dialect.name === "sqlite");

describe("the OpenAPI document", () => {
  let database: TestDatabase;
  let sluice: TestServer;
  let text: string;
  let document: OpenApiDocument;

  beforeAll(async () => {
    if (!sqlite) throw new Error("the SQLite dialect is always available");
    database = await sqlite.create();
    sluice = await startTestServer(database, { env: { SLUICE_BASE_URL: "https://sluice.test" } });
    text = (await rawRequest(`${sluice.url}/v1/openapi.json`)).text;
    document = JSON.parse(text) as OpenApiDocument;
  });

  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
  });

  it("names and sums up every operation, with its 4xx answers, each id once", () => {
    const ids = new Set<string>();
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!operation.operationId) problems.push(`${where}: no operationId`);
        if (!operation.summary) problems.push(`${where}: no summary`);
        const isProbe = path === "/health" || path === "/ready"; // public, and no input to refuse
        if (!isProbe && !Object.keys(operation.responses ?? {}).some((status) => status.startsWith("4")))
          problems.push(`${where}: no 4xx response`);
        if (operation.operationId && ids.has(operation.operationId))
          problems.push(`${where}: operationId ${operation.operationId} used twice`);
        ids.add(operation.operationId ?? "");
      }
    }
    expect(problems).toEqual([]);
  });

  it("passes Redocly's recommended rules with no error, and warns only of what is meant", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const results = await lintFromString({ source: text, absoluteRef: "openapi.json", config });
    const problems = results.map(
      (result) =>
        `${result.severity} ${result.ruleId}: ${result.message} at ${result.location[0]?.pointer ?? "?"}`,
    );
    expect(problems.filter((problem) => problem.startsWith("error"))).toEqual([]);
    // Pipedream's Connect paths put {project_id} where /v1/connect/projects and /apps are; the
    // liveness probes have no input to refuse.
    const expected = [
      /^warn no-ambiguous-paths: /,
      /^warn operation-4xx-response: .*#\/paths\/~1(health|ready)\//,
    ];
    expect(problems.filter((problem) => !expected.some((pattern) => pattern.test(problem)))).toEqual([]);
  });

  it("generates the client's wire types: src/client/openapi.ts is up to date (npm run generate:client-types)", async () => {
    await expect(await clientTypesSource(text)).toMatchFileSnapshot("../../src/client/openapi.ts");
  });

  it("the client's type names are the generated types, each with its fields (checked by npm run typecheck)", () => {
    expectTypeOf<Webhook["id"]>().toEqualTypeOf<string>();
    expectTypeOf<Webhook["rate_limit"]>().toEqualTypeOf<number | null>();
    expectTypeOf<WebhookUpdate["active"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<PageInfo["end_cursor"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Source["last_event_at"]>().toEqualTypeOf<number | null>();
    expectTypeOf<SourceParams["active"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Subscription["event_name"]>().toEqualTypeOf<string | null>();
    expectTypeOf<DeliveryWithAttempts["status"]>().toEqualTypeOf<"pending" | "delivered" | "failed">();
    expectTypeOf<DeliveryWithAttempts["attempt_log"][number]["status_code"]>().toEqualTypeOf<number | null>();
    expectTypeOf<ActionRunParams["key"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ListedComponent["registry"]>().toEqualTypeOf<"public" | "private">();
    expectTypeOf<ImportJob["status"]>().toEqualTypeOf<"running" | "succeeded" | "failed">();
    expectTypeOf<App["auth_type"]>().toEqualTypeOf<"keys" | "oauth" | "none">();
    expectTypeOf<ConnectedAccount["healthy"]>().toEqualTypeOf<boolean>();
    expectTypeOf<ConfigureResult["errors"]>().toEqualTypeOf<string[]>();
    expectTypeOf<ConnectProject["name"]>().toEqualTypeOf<string>();
    expectTypeOf<CreatedOAuthClient["client_secret"]>().toEqualTypeOf<string>();
    expectTypeOf<Component["code"]>().toEqualTypeOf<string>();
    expectTypeOf<Component["type"]>().toEqualTypeOf<"source" | "action">();
    expectTypeOf<Component["has_additional_props"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Component["lock"]>().toEqualTypeOf<{ [key: string]: string }>();
    expectTypeOf<ComponentSummary["code_hash"]>().toEqualTypeOf<string>();
    expectTypeOf<ConfigurableProp["name"]>().toEqualTypeOf<string>();
    expectTypeOf<ConfigurableProp["label"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ConfigurableProp["remoteOptions"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<PublishedComponent["key"]>().toEqualTypeOf<string>();
    expectTypeOf<PublishedComponent["published_at"]>().toEqualTypeOf<number>();
    expectTypeOf<PublishedComponentDetail["versions"][number]["published_at"]>().toEqualTypeOf<number>();
    expectTypeOf<PublicComponentDetail["versions"][number]["deprecated"]>().toEqualTypeOf<boolean>();
    expectTypeOf<EventSummary["event"]>().toEqualTypeOf<unknown>();
    expectTypeOf<EventSummary["event_truncated"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<EventSummary["metadata"]["id"]>().toEqualTypeOf<string | null>();
    expectTypeOf<LogEntry["invocation_id"]>().toEqualTypeOf<string>();
    expectTypeOf<RunResult["events"]>().toEqualTypeOf<string[]>();
    expectTypeOf<RunResult["failure"]>().toMatchTypeOf<{
      reason: string;
      message: string;
      stack?: string;
    } | null>();
    expectTypeOf<ActionRunResult["return_value"]>().toEqualTypeOf<unknown>();
    expectTypeOf<ActionRunResult["component_key"]>().toEqualTypeOf<string | null>();
    expectTypeOf<NonNullable<ActionRunResult["respond"]>["body_encoding"]>().toEqualTypeOf<
      "base64" | undefined
    >();
    expectTypeOf<ActionSendReport["kind"]>().toEqualTypeOf<"http" | "email" | "emit" | "sse" | "s3">();
    expectTypeOf<ActionSendReport["outcome"]["status"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Workflow["endpoint_url"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Workflow["steps"][number]["timeout_seconds"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<WorkflowTrigger["type"]>().toEqualTypeOf<"http" | "timer" | "source" | "uses" | "none">();
    expectTypeOf<Extract<WorkflowTrigger, { type: "source" }>["event_name"]>().toEqualTypeOf<string | null>();
    expectTypeOf<WorkflowRun["status"]>().toEqualTypeOf<
      "queued" | "running" | "paused" | "suspended" | "success" | "error" | "exited" | "cancelled"
    >();
    expectTypeOf<WorkflowRun["duration_ms"]>().toEqualTypeOf<number | null>();
    expectTypeOf<WorkflowRunStep["status"]>().toEqualTypeOf<"success" | "error" | "exited">();
    expectTypeOf<WorkflowParams["name"]>().toEqualTypeOf<string>();
    expectTypeOf<WorkflowParams["concurrency"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<WorkflowStepParams["props"]>().toEqualTypeOf<{ [key: string]: unknown } | undefined>();
    expectTypeOf<{ http: { customResponse: true } }>().toMatchTypeOf<WorkflowTriggerParams>();
    expectTypeOf<{ timer: { cron: string; timezone: string } }>().toMatchTypeOf<WorkflowTriggerParams>();
    expectTypeOf<WorkflowSourceTriggerParams["uses"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AppParams["auth_type"]>().toEqualTypeOf<"keys" | "oauth" | "none">();
    expectTypeOf<AppParams["scope"]>().toEqualTypeOf<"server" | "account" | undefined>();
    expectTypeOf<AppField["name"]>().toEqualTypeOf<string>();
    expectTypeOf<AppField["secret"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<OAuthSettingsParams["client_secret"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ReloadPropsResult["dynamicProps"]>().toEqualTypeOf<{
      id: string;
      configurableProps: { [key: string]: unknown }[];
    } | null>();
  });
});
