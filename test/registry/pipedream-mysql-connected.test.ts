/**
 * `@pipedream/mysql` unchanged, through a connected account: a MariaDB user with a password is
 * connected as a `mysql` account (an app nobody registered: any fields), its `table` prop's
 * options come from the real database through `POST /v1/components/configure` (the app's
 * propDefinition, with `$auth`), and "New Table" and "New Column" deploy with
 * `{"authProvisionId": "apn_…"}`. Neither responses, logs nor the database hold the password.
 * Fetched from npm at test time; needs SLUICE_TEST_MYSQL_URL (CI sets it: see test/support/mariadb.ts).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { runCli } from "../support/cli.js";
import { databaseText } from "../support/database-text.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { mariadb, mysqlClient } from "../support/mariadb.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const run = promisify(execFile);
const PACKAGE = "@pipedream/mysql@2.5.0";
const FILLERS = Array.from({ length: 8 }, (_, n) => `filler_${n}`);
const ALL_TABLES = ["first_table", "second_table", ...FILLERS].sort();

mariadb.describeWith(`${PACKAGE} through a connected account`, (url) => {
  const tag = randomBytes(4).toString("hex");
  const schema = `sluice_conn_${tag}`;
  const user = `sluice_u_${tag}`;
  const password = `pw-${randomBytes(12).toString("hex")}`;
  const mysql = mysqlClient(url);
  let packageDir: string;

  beforeAll(async () => {
    const folder = tempDir();
    const { stdout } = await run("npm", ["pack", PACKAGE, "--pack-destination", folder, "--silent"], {
      cwd: folder,
    });
    await run("tar", ["xzf", path.join(folder, stdout.trim().split("\n").at(-1) ?? ""), "-C", folder]);
    packageDir = path.join(folder, "package");
    // New Table lists the ten newest tables the user can see, across schemas; a user without
    // global privileges also sees performance_schema's tables, which have no CREATE_TIME (their
    // events would carry an invalid ts). With ten tables of its own, only those are listed.
    const tables = ["first_table", "second_table", ...FILLERS];
    await mysql(
      `create database ${schema};` +
        tables.map((table) => `create table ${schema}.${table} (id int);`).join("") +
        ["%", "localhost", "127.0.0.1"]
          .map(
            (host) =>
              `create user '${user}'@'${host}' identified by '${password}'; grant all on ${schema}.* to '${user}'@'${host}';`,
          )
          .join(""),
    );
  }, 180_000);
  afterAll(async () => {
    await mysql(
      `drop database if exists ${schema};` +
        ["%", "localhost", "127.0.0.1"].map((host) => `drop user if exists '${user}'@'${host}';`).join(""),
    ).catch(() => {});
  });

  for (const dialect of dialects) {
    describe.skipIf(!isAvailable(dialect))(`on ${dialect.name}`, () => {
      let database: TestDatabase;
      let sluice: TestServer;
      beforeAll(async () => {
        database = await dialect.create();
        sluice = await startTestServer(database, {
          env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
        });
      });
      afterAll(async () => {
        await sluice?.close();
        await database?.cleanup();
      });

      it("lists the real tables as the table prop's options and deploys with {authProvisionId}; the password is nowhere", async () => {
        const api = appsApi(sluice.client);
        const connected = await api.createConnectedAccount({
          app: "mysql",
          name: "local MariaDB",
          fields: {
            host: url.hostname,
            port: Number(url.port || 3306),
            username: user,
            password,
            database: schema,
          },
        });
        const reference = { authProvisionId: connected.id };
        const propsFile = path.join(tempDir(), "props.json");
        fs.writeFileSync(propsFile, JSON.stringify({ mysql: reference }));
        const env = { HOME: tempDir(), SLUICE_API_KEY: sluice.apiKey, SLUICE_BASE_URL: sluice.url };

        const newTable = await runCli(
          [
            "deploy",
            path.join(packageDir, "sources", "new-table", "new-table.mjs"),
            "--props-file",
            propsFile,
            "--json",
          ],
          env,
        );
        expect(newTable.code, newTable.stderr).toBe(0);
        const source = JSON.parse(newTable.stdout) as {
          id: string;
          configured_props: Record<string, unknown>;
        };
        expect(source.configured_props.mysql).toEqual(reference);
        const summaries = (await sluice.client.listEvents(source.id, { limit: 100 })).data.map(
          (item) => item.metadata.summary,
        );
        expect(summaries.sort()).toEqual(ALL_TABLES);

        // New Column's table prop is the app's propDefinition: its options are the database's tables.
        fs.writeFileSync(propsFile, JSON.stringify({ mysql: reference, table: "first_table" }));
        const newColumn = await runCli(
          [
            "deploy",
            path.join(packageDir, "sources", "new-column", "new-column.mjs"),
            "--props-file",
            propsFile,
            "--json",
          ],
          env,
        );
        expect(newColumn.code, newColumn.stderr).toBe(0);
        const configured = await api.configure({
          id: "mysql-new-column",
          prop_name: "table",
          configured_props: { mysql: reference },
        });
        expect(configured.errors).toEqual([]);
        expect(configured.stringOptions?.sort()).toEqual(ALL_TABLES);
        const viaSource = await api.configure({ id: JSON.parse(newColumn.stdout).id, prop_name: "table" });
        expect(viaSource.stringOptions?.sort()).toEqual(ALL_TABLES);

        const everything = [
          newTable.stdout,
          newTable.stderr,
          newColumn.stdout,
          newColumn.stderr,
          JSON.stringify(configured),
          JSON.stringify(await api.getConnectedAccount(connected.id)),
          JSON.stringify(await sluice.client.listLogs(source.id, { limit: 100 })),
        ].join("\n");
        expect(everything.includes(password), "the password is in a response").toBe(false);
        expect(
          (await databaseText(database)).includes(password),
          "the password is stored in plain text",
        ).toBe(false);
      }, 240_000);
    });
  }
});
