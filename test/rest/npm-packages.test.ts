/**
 * npm packages run as installed (issue 13), through the REST API on a real server: packages that
 * find files relative to themselves (pdfkit reads its font metrics with
 * `fs.readFileSync(__dirname + …)`, moment loads a locale with a computed `require`), an `exports`
 * map with a subpath (nanoid), a tree with two versions of one dependency (pdfkit's pako), an
 * optional native dependency loaded in try/catch (ssh2 and cpu-features), and a native addon
 * required outright, which fails at deploy naming the package. The same components stay inside
 * the sandbox: their own package's files are readable, the data directory, another version of a
 * package outside their lock and /etc/passwd are not, whether the component or the package's own
 * code reads them.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/client.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";

const NETWORK_TIMEOUT = 240_000;

const PDF_ACTION = `
import PDFDocument from "pdfkit@0.15.0";
import moment from "moment@2.30.1";
import { nanoid } from "nanoid@5.0.7/non-secure";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

function pdf() {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument();
    const chunks = [];
    doc.on("data", (chunk) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.font("Helvetica-Bold").fontSize(18).text("Sluice");
    doc.font("Helvetica").text("A line long enough to be broken into several lines by pdfkit's line breaker. ".repeat(4));
    doc.end();
  });
}

export default defineAction({
  name: "Packages as installed",
  key: "packages-as-installed",
  version: "0.0.1",
  type: "action",
  props: {},
  async run({ steps }) {
    const local = createRequire(import.meta.url);
    const pdfkitDir = path.dirname(path.dirname(local.resolve("pdfkit")));
    if (steps.font) {
      // pdfkit itself reads the file: a font path that is not a standard font is read with fs.readFileSync.
      try {
        new PDFDocument().font(steps.font.replace("<pdfkit>", pdfkitDir));
        return { font: "loaded" };
      } catch (error) {
        return { code: error.code ?? null, byPdfkit: String(error.stack).includes("/node_modules/pdfkit/") };
      }
    }
    if (steps.read) {
      try {
        const target = steps.read.replace("<pdfkit>", pdfkitDir);
        return { read: fs.readFileSync(target, "utf8").slice(0, 200) };
      } catch (error) {
        return { denied: error.code };
      }
    }
    const bytes = await pdf();
    return {
      pdf: bytes.subarray(0, 5).toString("latin1"),
      pdfBytes: bytes.length,
      month: moment("2024-01-15").locale("fr").format("MMMM"),
      id: nanoid(12).length,
      ownVersion: JSON.parse(fs.readFileSync(path.join(pdfkitDir, "package.json"), "utf8")).version,
      pdfkitDir,
    };
  },
});
`;

describe("npm packages run as installed", () => {
  let database: TestDatabase;
  let sluice: TestServer;

  beforeAll(async () => {
    const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
    if (!sqlite) throw new Error("the sqlite test dialect is missing");
    database = await sqlite.create();
    sluice = await startTestServer(database);
  });
  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
  });

  const runPdf = (steps: Record<string, unknown> = {}) =>
    sluice.client.runAction({ component_code: PDF_ACTION, filename: "pdf.mjs", steps });

  it(
    "packages that read their own files, load a computed require and use an exports map deploy and run",
    async () => {
      const result = await runPdf();
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const value = result.return_value as Record<string, unknown>;
      expect(value.pdf).toBe("%PDF-");
      expect(value.pdfBytes).toBeGreaterThan(1000);
      expect(value.month).toBe("janvier");
      expect(value.id).toBe(12);
      expect(value.ownVersion).toBe("0.15.0");
      // pdfkit runs from the package cache, where its dependency tree has two versions of pako.
      const pdfkitDir = String(value.pdfkitDir);
      expect(pdfkitDir).toBe(
        fs.realpathSync(path.join(database.dataDir, "packages", "pdfkit@0.15.0", "node_modules", "pdfkit")),
      );
      const installed = path.join(database.dataDir, "packages", "pdfkit@0.15.0", "node_modules");
      const pakoVersions = new Set(
        [path.join(installed, "pako"), path.join(installed, "unicode-trie", "node_modules", "pako")]
          .filter((dir) => fs.existsSync(dir))
          .map((dir) => JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version),
      );
      expect(pakoVersions.size).toBe(2);
    },
    NETWORK_TIMEOUT,
  );

  it("the component reads its package's own files, but not the data directory, another version of a package, or /etc/passwd", async () => {
    const own = await runPdf({ read: "<pdfkit>/package.json" });
    expect(own.ok, JSON.stringify(own)).toBe(true);
    expect((own.return_value as { read?: string }).read).toContain('"name": "pdfkit"');

    // Another component locks moment@2.29.4: installed in the same cache, outside this lock.
    const other = await sluice.client.runAction({
      component_code:
        'import moment from "moment@2.29.4";\nexport default defineAction({ name: "old moment", key: "old-moment", version: "0.0.1", type: "action", props: {}, run() { return moment.version; } });',
      filename: "old-moment.mjs",
    });
    expect(other.return_value).toBe("2.29.4");
    const otherVersion = path.join(
      database.dataDir,
      "packages",
      "moment@2.29.4",
      "node_modules",
      "moment",
      "package.json",
    );
    fs.writeFileSync(path.join(database.dataDir, "secret.txt"), "the server's secret");
    for (const target of [
      fs.realpathSync(otherVersion),
      otherVersion,
      path.join(database.dataDir, "secret.txt"),
      path.join(database.dataDir, "sluice.db"),
      "<pdfkit>/../../../moment@2.29.4/node_modules/moment/package.json",
      "/etc/passwd",
    ]) {
      const attempt = await runPdf({ read: target });
      expect(attempt.ok, JSON.stringify(attempt)).toBe(true);
      expect(attempt.return_value, target).toEqual({ denied: "ERR_ACCESS_DENIED" });
    }
  });

  it("a package's own code cannot read outside its install directory", async () => {
    // Inside: pdfkit reads one of its own files (not a font: it is read, then refused by the parser).
    const inside = await runPdf({ font: "<pdfkit>/package.json" });
    expect(inside.ok, JSON.stringify(inside)).toBe(true);
    expect(inside.return_value).toEqual({ code: null, byPdfkit: true });
    fs.writeFileSync(path.join(database.dataDir, "font.ttf"), "not a font");
    for (const target of [
      path.join(database.dataDir, "font.ttf"),
      // Installed by the test above, for another component: outside this component's lock.
      "<pdfkit>/../../../moment@2.29.4/node_modules/moment/package.json",
      "/etc/passwd",
    ]) {
      const attempt = await runPdf({ font: target });
      expect(attempt.ok, JSON.stringify(attempt)).toBe(true);
      expect(attempt.return_value, target).toEqual({ code: "ERR_ACCESS_DENIED", byPdfkit: true });
    }
  });

  it(
    "a package with an optional native dependency in try/catch (ssh2, cpu-features) deploys and runs without it",
    async () => {
      const result = await sluice.client.runAction({
        component_code: [
          // As in Node, a CommonJS package's exports the module lexer cannot see come from its default.
          'import ssh2 from "ssh2@1.16.0";',
          "export default defineAction({",
          '  name: "ssh keys", key: "ssh-keys", version: "0.0.1", type: "action", props: {},',
          '  run() { const keys = ssh2.utils.generateKeyPairSync("ed25519"); return keys.public.split(" ")[0]; },',
          "});",
        ].join("\n"),
        filename: "ssh.mjs",
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(result.return_value).toBe("ssh-ed25519");
    },
    NETWORK_TIMEOUT,
  );

  it(
    "old CommonJS idioms work as in Node: `this` at module scope, in a package and in the component, and a global a package sets for itself",
    async () => {
      const result = await sluice.client.runAction({
        component_code: [
          // underscore 1.8.3 starts with `var root = this; var previousUnderscore = root._;`.
          'const _ = require("underscore@1.8.3");',
          // regenerator-runtime 0.13 assigns the undeclared `regeneratorRuntime` (sloppy mode).
          'require("regenerator-runtime@0.13.11");',
          "this.greeting = 'hello';",
          "const moduleThis = this;",
          "module.exports = {",
          '  name: "old idioms", key: "old-idioms", version: "0.0.1", type: "action", props: {},',
          "  run() {",
          "    return {",
          "      first: _.first([3, 2, 1]),",
          "      thisIsExports: moduleThis === exports,",
          "      greeting: moduleThis.greeting,",
          "      globalRuntime: typeof globalThis.regeneratorRuntime?.wrap,",
          "    };",
          "  },",
          "};",
        ].join("\n"),
        filename: "old-idioms.js",
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(result.return_value).toEqual({
        first: 3,
        thisIsExports: true,
        greeting: "hello",
        globalRuntime: "function",
      });
    },
    NETWORK_TIMEOUT,
  );

  it(
    "a native addon required outright fails at deploy with an error naming the package",
    async () => {
      const error = await sluice.client
        .runAction({
          component_code: [
            'import cpuFeatures from "cpu-features@0.0.10";',
            'export default defineAction({ name: "native", key: "native", version: "0.0.1", type: "action", props: {}, run() { return cpuFeatures(); } });',
          ].join("\n"),
          filename: "native.mjs",
        })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).message).toMatch(/package 'cpu-features', a native addon/);
      // The server is unharmed: the next component runs.
      const next = await runPdf({ read: "<pdfkit>/package.json" });
      expect(next.ok).toBe(true);
    },
    NETWORK_TIMEOUT,
  );
});
