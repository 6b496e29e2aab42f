/**
 * `sluice init source|action|app NAME [--http] [--timer] [--db]`: scaffolds NAME/NAME.mjs, a
 * working component in the style of docs/components.md, and NAME/NAME.test.mjs, a test of it that
 * runs with `node --test NAME/NAME.test.mjs` and needs no server. (A test file, not the folder:
 * Node 22 and 24 read `node --test`'s arguments as file patterns, and a folder matches no file.)
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UsageError } from "../output.js";

type Kind = "source" | "action" | "app";

interface InitFlags {
  http?: boolean;
  timer?: boolean;
  db?: boolean;
  dir?: string;
}

export function registerInit(program: Command): void {
  program
    .command("init <kind> <name>")
    .description("scaffold a component (source, action or app) and a test for it")
    .option("--http", "a source with an HTTP endpoint that answers the caller")
    .option("--timer", "a source that runs on a schedule")
    .option("--db", "keep state between runs with $.service.db")
    .option("--dir <directory>", "where to create the folder (default: the current directory)")
    .action((kind: string, name: string, flags: InitFlags) => {
      if (kind !== "source" && kind !== "action" && kind !== "app") {
        throw new UsageError(`The kind is source, action or app, not '${kind}'`);
      }
      if ((flags.http || flags.timer) && kind !== "source")
        throw new UsageError("--http and --timer are for sources");
      if (flags.http && flags.timer) throw new UsageError("Choose --http or --timer, not both");
      const slug = name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "");
      if (slug === "") throw new UsageError(`'${name}' has no letters or digits to name files after`);
      const folder = path.resolve(flags.dir ?? ".", slug);
      if (fs.existsSync(folder))
        throw new UsageError(`${folder} already exists; choose another name or remove it`);

      const files = scaffold(kind, slug, titleOf(name), flags);
      fs.mkdirSync(folder, { recursive: true });
      for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(folder, file), content);
      const relative = path.relative(process.cwd(), folder) || ".";
      process.stdout.write(
        [
          `Created ${relative}/${slug}.mjs and ${relative}/${slug}.test.mjs`,
          "",
          `  node --test ${relative}/${slug}.test.mjs   run its test`,
          kind === "source"
            ? `  npx sluice dev ${relative}/${slug}.mjs   deploy it and redeploy on every save`
            : "",
          kind === "source" ? `  npx sluice deploy ${relative}/${slug}.mjs` : "",
          "",
        ]
          .filter((line, index, lines) => line !== "" || lines[index - 1] !== "")
          .join("\n"),
      );
    });
}

function titleOf(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join(" ");
}

function scaffold(kind: Kind, slug: string, title: string, flags: InitFlags): Record<string, string> {
  if (kind === "app") return { [`${slug}.mjs`]: appCode(slug, title), [`${slug}.test.mjs`]: appTest(slug) };
  if (kind === "action")
    return { [`${slug}.mjs`]: actionCode(slug, title), [`${slug}.test.mjs`]: actionTest(slug) };
  return { [`${slug}.mjs`]: sourceCode(slug, title, flags), [`${slug}.test.mjs`]: sourceTest(slug, flags) };
}

function sourceCode(slug: string, title: string, { http, timer, db }: InitFlags): string {
  const props = [
    http ? `    http: { type: "$.interface.http", customResponse: true },` : "",
    timer ? `    timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } },` : "",
    db ? `    db: "$.service.db",` : "",
    `    greeting: { type: "string", label: "Greeting", optional: true, default: "hello" },`,
  ].filter(Boolean);
  const count = db
    ? `    const count = (this.db.get("count") ?? 0) + 1;\n    this.db.set("count", count);\n`
    : "    const count = 1;\n";
  const trigger = http ? "event.body" : timer ? "{ at: event.timestamp }" : "event";
  const respond = http
    ? `    await this.http.respond({ status: 200, body: { received: true, count } });\n`
    : "";
  return `// ${title}: a Sluice source (Pipedream's component API). See docs/components.md.
export default {
  key: "${slug}",
  name: "${title}",
  description: "Emits an event each time it runs.",
  version: "0.0.1",
  type: "source",
  props: {
${props.join("\n")}
  },
  methods: {
    summary(count) {
      return \`\${this.greeting}: event \${count}\`;
    },
  },
  async run(event) {
${count}    console.log(this.summary(count));
    this.$emit({ ${http || timer ? `data: ${trigger}, ` : ""}count }, { id: ${timer ? "event.timestamp" : "Date.now()"}, summary: this.summary(count) });
${respond}  },
};
`;
}

function sourceTest(slug: string, { http, timer, db }: InitFlags): string {
  const event = http
    ? `{ method: "POST", path: "/", query: {}, headers: {}, bodyRaw: "{\\"n\\":1}", body: { n: 1 } }`
    : timer
      ? "{ timestamp: 1700000000, interval_seconds: 60 }"
      : "{}";
  return `// Runs ${slug}.mjs without a server: \`node --test\`. The stub gives it what Sluice would.
import assert from "node:assert/strict";
import { test } from "node:test";
import component from "./${slug}.mjs";

function instance(props = {}) {
  const emitted = [];
  const state = new Map();
  const self = {
    greeting: "hello",
    ...props,
    $emit: (event, meta) => {
      emitted.push({ event, meta });
      return Promise.resolve();
    },${db ? `\n    db: { get: (key) => state.get(key), set: (key, value) => state.set(key, value) },` : ""}${http ? `\n    http: { endpoint: "http://127.0.0.1:8080/e/test", respond: (response) => (self.response = response) },` : ""}
  };
  for (const [name, method] of Object.entries(component.methods ?? {})) self[name] = method.bind(self);
  return { self, emitted };
}

test("${slug} emits an event with a summary each time it runs", async () => {
  const { self, emitted } = instance();
  await component.run.call(self, ${event});
  await component.run.call(self, ${event});
  assert.equal(emitted.length, 2);
  assert.equal(emitted[1].meta.summary, "hello: event ${db ? "2" : "1"}");${http ? `\n  assert.equal(self.response.status, 200);` : ""}
});
`;
}

function actionCode(slug: string, title: string): string {
  return `// ${title}: a Sluice action, run as a workflow step. See docs/components.md.
export default {
  key: "${slug}",
  name: "${title}",
  description: "Greets someone and returns the greeting to later steps.",
  version: "0.0.1",
  type: "action",
  props: {
    name: { type: "string", label: "Name", description: "Who to greet" },
  },
  async run({ $ }) {
    const greeting = \`Hello, \${this.name}!\`;
    $.export("$summary", \`Greeted \${this.name}\`);
    return greeting;
  },
};
`;
}

function actionTest(slug: string): string {
  return `// Runs ${slug}.mjs without a server: \`node --test\`.
import assert from "node:assert/strict";
import { test } from "node:test";
import component from "./${slug}.mjs";

test("${slug} returns a greeting and exports a summary", async () => {
  const exports = {};
  const $ = { export: (name, value) => (exports[name] = value) };
  const result = await component.run.call({ name: "Ada" }, { steps: {}, $ });
  assert.equal(result, "Hello, Ada!");
  assert.equal(exports.$summary, "Greeted Ada");
});
`;
}

function appCode(slug: string, title: string): string {
  return `// ${title}: a Sluice app, shared by the components that use it as a prop. See docs/components.md.
export default {
  type: "app",
  app: "${slug}",
  propDefinitions: {
    region: {
      type: "string",
      label: "Region",
      options: ["eu", "us"],
    },
  },
  methods: {
    baseUrl(region) {
      return \`https://\${region}.api.example.com\`;
    },
    authHeaders() {
      return { Authorization: \`Bearer \${this.$auth.api_key}\` };
    },
  },
};
`;
}

function appTest(slug: string): string {
  return `// Checks ${slug}.mjs without a server: \`node --test\`.
import assert from "node:assert/strict";
import { test } from "node:test";
import app from "./${slug}.mjs";

test("${slug}'s methods build URLs and headers from its credentials", () => {
  const self = { $auth: { api_key: "k" } };
  assert.equal(app.methods.baseUrl.call(self, "eu"), "https://eu.api.example.com");
  assert.deepEqual(app.methods.authHeaders.call(self), { Authorization: "Bearer k" });
});
`;
}
