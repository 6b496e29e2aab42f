/**
 * A real source from Pipedream's registry, unchanged: `@pipedream/postgresql`'s "New Table"
 * (an app file with `pg`, `pg-format` and `@pipedream/platform`, a propDefinition, `$auth`, a
 * timer default, `$.service.db`), fetched from the npm registry at test time and deployed with the
 * CLI. The app always asks for TLS, so the source queries a private cluster this test starts with
 * a self-signed certificate (`ssl_verification_mode: skip_verification`, as a user of a managed
 * PostgreSQL would set it), with loopback allowed to components (SLUICE_COMPONENT_ALLOWED_CIDRS).
 *
 * It also shows the sandbox's network policy at work: a server on the PostgreSQL that
 * SLUICE_TEST_DATABASE_URL names (CI sets it: see test/support/needed-service.ts) refuses the
 * source's connection to that same PostgreSQL, its own database, whatever the allow list says.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { neededService } from "../support/needed-service.js";
import { unpackNpmPackage } from "../support/npm-package.js";
import { type PrivatePostgres, startPrivatePostgres } from "../support/private-postgres.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const PACKAGE = "@pipedream/postgresql@2.2.4";

const postgres = neededService("SLUICE_TEST_DATABASE_URL", "PostgreSQL", "the @pipedream/postgresql tests");

postgres.describeWith(`Pipedream's ${PACKAGE} "New Table" source, unchanged`, (url) => {
  const schema = `sluice_registry_${randomBytes(4).toString("hex")}`;
  let cluster: PrivatePostgres;
  const query = async (statement: string, connectionString = url.href) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const servers: { database: TestDatabase; server: TestServer }[] = [];
  let packageDir: string;
  /** Props for the private cluster (reachable), and for Sluice's own PostgreSQL (refused). */
  let clusterProps: string;
  let ownDatabaseProps: string;

  const start = async (dialect: "sqlite" | "postgres") => {
    const database = await (
      dialects.find((candidate) => candidate.name === dialect) as (typeof dialects)[number]
    ).create();
    const server = await startTestServer(database, {
      env: { SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
    });
    servers.push({ database, server });
    return server;
  };
  const deploy = (server: TestServer, propsFile: string) =>
    runCli(
      [
        "deploy",
        path.join(packageDir, "sources", "new-table", "new-table.mjs"),
        "--props-file",
        propsFile,
        "--json",
      ],
      { HOME: tempDir(), SLUICE_API_KEY: server.apiKey, SLUICE_BASE_URL: server.url },
    );

  beforeAll(async () => {
    packageDir = await unpackNpmPackage(PACKAGE);
    cluster = await startPrivatePostgres({ ssl: true });
    await query(`create schema ${schema}; create table ${schema}.first_table (id int)`, cluster.url);
    const propsFor = (host: string, port: number, user: string, password: string, database: string) => {
      const file = path.join(tempDir(), "props.json");
      const postgresql = { host, port, user, password, database, ssl_verification_mode: "skip_verification" };
      fs.writeFileSync(file, JSON.stringify({ postgresql, schema }));
      return file;
    };
    clusterProps = propsFor("127.0.0.1", cluster.port, "postgres", "", "postgres");
    ownDatabaseProps = propsFor(
      url.hostname,
      Number(url.port || 5432),
      decodeURIComponent(url.username),
      decodeURIComponent(url.password),
      url.pathname.slice(1),
    );
  }, 180_000);
  afterAll(async () => {
    for (const { server, database } of servers) {
      await server.close();
      await database.cleanup();
    }
    await cluster?.destroy();
  });

  it("deploys with the CLI and emits the tables it finds, then a new one", async () => {
    const server = await start("sqlite");
    const env = { HOME: tempDir(), SLUICE_API_KEY: server.apiKey, SLUICE_BASE_URL: server.url };
    const deployed = await deploy(server, clusterProps);
    expect(deployed.code, deployed.stderr).toBe(0);
    const source = JSON.parse(deployed.stdout) as { id: string; component_key: string };
    expect(source.component_key).toBe("postgresql-new-table");
    const summaries = async () =>
      (await server.client.listEvents(source.id, { limit: 100 })).data.map((item) => item.metadata.summary);

    const first = await runCli(["run", source.id, "--json"], env);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(await summaries()).toEqual(["first_table"]);
    await query(`create table ${schema}.second_table (id int)`, cluster.url);
    const second = await runCli(["run", source.id, "--json"], env);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect((await summaries()).sort()).toEqual(["first_table", "second_table"]);
  }, 120_000);

  it("is refused on a server whose own database that PostgreSQL is, whatever the allow list says", async () => {
    const server = await start("postgres");
    const env = { HOME: tempDir(), SLUICE_API_KEY: server.apiKey, SLUICE_BASE_URL: server.url };
    const deployed = await deploy(server, ownDatabaseProps);
    expect(deployed.code, deployed.stderr).toBe(0);
    const source = JSON.parse(deployed.stdout) as { id: string };
    const result = await runCli(["run", source.id], env);
    expect(result.code).not.toBe(0);
    // The host is part of the app's credentials, so Sluice masks it in what it prints.
    expect(result.stdout + result.stderr).toMatch(
      new RegExp(
        `connection to \\S+:${url.port || 5432} refused by Sluice's network policy: it is Sluice's own database, which components may never reach`,
      ),
    );
    expect((await server.client.listEvents(source.id, { limit: 10 })).data).toEqual([]);
  }, 120_000);
});
