/**
 * A real source from Pipedream's registry, unchanged: `@pipedream/mysql`'s "New Table" (relative
 * imports of a common module and an app file, `@pipedream/platform`, `mysql2`, propDefinitions,
 * an app prop with $auth, a timer default, a deploy hook that emits, dedupe "unique"). The
 * package is fetched from the npm registry at test time and deployed with the CLI, against the
 * local MariaDB named by SLUICE_TEST_MYSQL_URL (CI sets it: see test/support/mariadb.ts).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { mariadb, mysqlClient } from "../support/mariadb.js";
import { unpackNpmPackage } from "../support/npm-package.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const PACKAGE = "@pipedream/mysql@2.5.0";

mariadb.describeWith(`Pipedream's ${PACKAGE} "New Table" source, unchanged`, (url) => {
  const schema = `sluice_registry_${randomBytes(4).toString("hex")}`;
  const mysql = mysqlClient(url);
  let database: TestDatabase;
  let sluice: TestServer;
  let packageDir: string;

  beforeAll(async () => {
    packageDir = await unpackNpmPackage(PACKAGE);
    await mysql(`create database ${schema}; create table ${schema}.first_table (id int)`);
    database = await (dialects[0] as NonNullable<(typeof dialects)[0]>).create();
    sluice = await startTestServer(database, {
      env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
    });
  }, 180_000);
  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
    await mysql(`drop database if exists ${schema}`).catch(() => {});
  });

  it("deploys with the CLI, emits from its deploy hook, and emits a new table when run", async () => {
    const propsFile = path.join(tempDir(), "props.json");
    fs.writeFileSync(
      propsFile,
      JSON.stringify({
        mysql: {
          host: url.hostname,
          port: Number(url.port || 3306),
          username: decodeURIComponent(url.username),
          password: decodeURIComponent(url.password),
          database: schema,
        },
      }),
    );
    const env = { HOME: tempDir(), SLUICE_API_KEY: sluice.apiKey, SLUICE_BASE_URL: sluice.url };
    const deployed = await runCli(
      [
        "deploy",
        path.join(packageDir, "sources", "new-table", "new-table.mjs"),
        "--props-file",
        propsFile,
        "--json",
      ],
      env,
    );
    expect(deployed.code, deployed.stderr + deployed.stdout).toBe(0);
    const source = JSON.parse(deployed.stdout) as {
      id: string;
      component_key: string;
      configured_props: Record<string, unknown>;
    };
    expect(source.component_key).toBe("mysql-new-table");
    // The app's credentials are masked; the timer default came from @pipedream/platform.
    expect(source.configured_props.mysql).toBe("********");
    expect(source.configured_props.timer).toEqual({ intervalSeconds: 900 });

    const summaries = async () =>
      (await sluice.client.listEvents(source.id, { limit: 100 })).data.map((item) => item.metadata.summary);
    expect(await summaries()).toContain("first_table");

    await mysql(`create table ${schema}.second_table (id int)`);
    const result = await runCli(["run", source.id, "--json"], env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await summaries()).toContain("second_table");
    // dedupe "unique": the table seen at deploy is not emitted again.
    expect((await summaries()).filter((summary) => summary === "first_table")).toHaveLength(1);
  }, 180_000);
});
