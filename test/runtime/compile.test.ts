/**
 * The compiler contract on the esbuild implementation, with real esbuild, the real npm registry and
 * a package cache in a temp data directory. Bundles are written to disk as artifacts (their
 * packages linked from the cache) and imported, as a runner would load them.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompileError, type CompileErrorCode, type Compiler } from "../../src/runtime/compile/compiler.js";
import { createCompiler, type InstallEvent } from "../../src/runtime/compile/esbuild-compiler.js";
import { createNpmPackages } from "../../src/runtime/compile/npm-packages.js";
import { ArtifactStore } from "../../src/runtime/sandbox/artifacts.js";
import { tempDir } from "../support/temp.js";

const NETWORK_TIMEOUT = 120_000;
// A registry nothing listens on: a compile that consults it fails.
const UNREACHABLE_REGISTRY = "http://127.0.0.1:9/";

interface LoadedComponent {
  readonly name?: string;
  run?(): unknown;
  version?(): unknown;
}

describe("esbuild compiler", () => {
  let dataDir: string;
  let scratchDir: string;
  let compiler: Compiler;
  let artifacts: ArtifactStore;
  let bundleCount = 0;
  const installs: InstallEvent[] = [];
  const installsOf = (name: string) => installs.filter((event) => event.name === name);

  beforeAll(() => {
    dataDir = tempDir("sluice-compile-");
    scratchDir = tempDir("sluice-compile-scratch-");
    const packages = createNpmPackages({ dataDir, onInstall: (event) => installs.push(event) });
    compiler = createCompiler({ dataDir, packages });
    artifacts = new ArtifactStore(scratchDir, packages.cache);
  });
  afterAll(() => {
    for (const dir of [dataDir, scratchDir]) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Writes the bundle as an artifact and imports it; resolves to its default export. */
  async function load(bundle: string): Promise<LoadedComponent> {
    const bundleHash = `bundle-${++bundleCount}`;
    const { file } = await artifacts.ensure({ componentId: bundleHash, bundleHash, bundle });
    const module: { default: LoadedComponent } = await import(/* @vite-ignore */ pathToFileURL(file).href);
    return module.default;
  }

  async function compileError(code: string, filename?: string): Promise<CompileError> {
    const error: unknown = await compiler.compile({ code, ...(filename ? { filename } : {}) }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CompileError);
    return error as CompileError;
  }

  async function expectCompileError(code: string, expected: CompileErrorCode): Promise<CompileError> {
    const error = await compileError(code);
    expect(error.code, error.message).toBe(expected);
    return error;
  }

  describe("component formats", () => {
    it("an ES module component's default export is the bundle's default export", async () => {
      const code = [
        'import { createHash } from "node:crypto";',
        "export default {",
        '  name: "esm-source",',
        '  run() { return createHash("sha256").update("x").digest("hex").length; },',
        "};",
      ].join("\n");
      const compiled = await compiler.compile({ code, filename: "esm-source.mjs" });
      expect(compiled.lock).toEqual({});
      expect(compiled.bundle).toContain('from "node:crypto"');
      const component = await load(compiled.bundle);
      expect(component.name).toBe("esm-source");
      expect(component.run?.()).toBe(64);
    });

    it("a CommonJS component's module.exports is the bundle's default export", async () => {
      const code = [
        'const path = require("path");',
        "module.exports = {",
        '  name: "cjs-source",',
        '  run() { return path.join("a", "b"); },',
        "};",
      ].join("\n");
      const component = await load((await compiler.compile({ code, filename: "cjs-source.js" })).bundle);
      expect(component.name).toBe("cjs-source");
      expect(component.run?.()).toBe(path.join("a", "b"));
    });

    it(
      "a TypeScript component using defineSource from @pipedream/types compiles, with or without a .ts name",
      async () => {
        const code = [
          'import { defineSource } from "@pipedream/types";',
          "interface Greeting { readonly text: string }",
          'const greeting: Greeting = { text: "hello" };',
          "export default defineSource({",
          '  name: "ts-source",',
          '  key: "ts-source",',
          '  version: "0.0.1",',
          "  props: {},",
          "  async run(): Promise<void> { (this as unknown as { text: string }).text = greeting.text; },",
          "});",
        ].join("\n");
        const compiled = await compiler.compile({ code, filename: "ts-source.ts" });
        expect(Object.keys(compiled.lock)).toEqual(["@pipedream/types"]);
        const component = await load(compiled.bundle);
        expect(component.name).toBe("ts-source");
        expect(typeof component.run).toBe("function");
        const unnamed = await compiler.compile({ code });
        expect(unnamed.bundleHash).toBe(compiled.bundleHash);
      },
      NETWORK_TIMEOUT,
    );

    it("defineComponent and friends used without an import are identity functions", async () => {
      const typescript = [
        "const label: string = 'typed';",
        "export default defineComponent({ name: label, run(): number { return 1; } });",
      ].join("\n");
      const commonjs = 'module.exports = defineAction({ name: "cjs-action", run() { return 2; } });';
      const typed = await load((await compiler.compile({ code: typescript, filename: "global.ts" })).bundle);
      expect([typed.name, typed.run?.()]).toEqual(["typed", 1]);
      const action = await load((await compiler.compile({ code: commonjs })).bundle);
      expect([action.name, action.run?.()]).toEqual(["cjs-action", 2]);
    });

    it("hashes the code and the bundle with SHA-256", async () => {
      const code = 'export default { name: "hashed" };';
      const compiled = await compiler.compile({ code });
      expect(compiled.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(compiled.bundleHash).toMatch(/^[0-9a-f]{64}$/);
      expect(compiled.bundleHash).not.toBe(compiled.codeHash);
      expect((await compiler.compile({ code })).bundleHash).toBe(compiled.bundleHash);
    });
  });

  describe("npm imports", () => {
    it(
      "an exact version is installed and locked, and stays an import without its version",
      async () => {
        const code = 'import _ from "lodash@4.17.20";\nexport default { version() { return _.VERSION; } };';
        const compiled = await compiler.compile({ code });
        expect(compiled.lock).toEqual({ lodash: "4.17.20" });
        expect(compiled.bundle).toMatch(/^\/\/ sluice-packages \{"lodash":"4\.17\.20"\}\n/);
        expect(compiled.bundle).toContain('from "lodash";');
        expect(compiled.bundle).not.toContain(dataDir);
        expect((await load(compiled.bundle)).version?.()).toBe("4.17.20");
        expect(installsOf("lodash").map((event) => event.version)).toEqual(["4.17.20"]);
      },
      NETWORK_TIMEOUT,
    );

    it("a second compile of an installed version installs nothing", async () => {
      const packageDir = path.join(dataDir, "packages", "lodash@4.17.20");
      const before = fs.statSync(packageDir);
      const code = 'import _ from "lodash@4.17.20";\nexport default { version() { return _.VERSION; } };';
      expect((await compiler.compile({ code })).lock).toEqual({ lodash: "4.17.20" });
      const after = fs.statSync(packageDir);
      expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
      expect(installsOf("lodash")).toHaveLength(1);
    });

    it(
      "a range and a subpath of one package share the one version both accept",
      async () => {
        const code = [
          'import _ from "lodash@^4.17.0";',
          'import fp from "lodash@4.17.21/fp";',
          "export default { version() { return _.VERSION; }, run() { return fp.map((n) => n * 2)([1, 2]); } };",
        ].join("\n");
        const compiled = await compiler.compile({ code });
        expect(compiled.lock).toEqual({ lodash: "4.17.21" });
        const component = await load(compiled.bundle);
        expect(component.version?.()).toBe("4.17.21");
        expect(component.run?.()).toEqual([2, 4]);
      },
      NETWORK_TIMEOUT,
    );

    it(
      "a range alone resolves to a version it accepts",
      async () => {
        const code = 'import _ from "lodash@~4.17.20";\nexport default { version() { return _.VERSION; } };';
        const compiled = await compiler.compile({ code });
        const locked = compiled.lock.lodash ?? "";
        expect(semver.satisfies(locked, "~4.17.20")).toBe(true);
        expect((await load(compiled.bundle)).version?.()).toBe(locked);
      },
      NETWORK_TIMEOUT,
    );

    it(
      "a scoped package with a major-version range resolves (an ESM-only package)",
      async () => {
        const code = [
          'import slugify from "@sindresorhus/slugify@2";',
          'export default { run() { return slugify("Hello Sluice World"); } };',
        ].join("\n");
        const compiled = await compiler.compile({ code });
        expect(semver.major(compiled.lock["@sindresorhus/slugify"] ?? "0.0.0")).toBe(2);
        expect((await load(compiled.bundle)).run?.()).toBe("hello-sluice-world");
      },
      NETWORK_TIMEOUT,
    );

    it(
      "@pipedream/platform bundles and its axios is usable",
      async () => {
        const code = [
          'import { axios } from "@pipedream/platform";',
          'export default { name: "uses-platform", run() { return typeof axios; } };',
        ].join("\n");
        const compiled = await compiler.compile({ code, filename: "platform.mjs" });
        expect(Object.keys(compiled.lock)).toEqual(["@pipedream/platform"]);
        expect((await load(compiled.bundle)).run?.()).toBe("function");
      },
      NETWORK_TIMEOUT,
    );

    it(
      "two concurrent compiles importing a new package both succeed with one install",
      async () => {
        const first = 'import ms from "ms@2.1.3";\nexport default { run() { return ms("1m"); } };';
        const second = 'const ms = require("ms@2.1.3");\nmodule.exports = { run() { return ms(2000); } };';
        const [a, b] = await Promise.all([
          compiler.compile({ code: first }),
          compiler.compile({ code: second }),
        ]);
        expect(a.lock).toEqual({ ms: "2.1.3" });
        expect(b.lock).toEqual({ ms: "2.1.3" });
        expect(installsOf("ms")).toHaveLength(1);
        expect((await load(a.bundle)).run?.()).toBe(60_000);
        expect((await load(b.bundle)).run?.()).toBe("2s");
      },
      NETWORK_TIMEOUT,
    );

    it("a lock is used as given, without consulting the registry", async () => {
      const offline = createCompiler({ dataDir, registry: UNREACHABLE_REGISTRY });
      const code = 'import _ from "lodash";\nexport default { version() { return _.VERSION; } };';
      const compiled = await offline.compile({ code, lock: { lodash: "4.17.20" } });
      expect(compiled.lock).toEqual({ lodash: "4.17.20" });
      expect((await load(compiled.bundle)).version?.()).toBe("4.17.20");
    });

    it("an unreachable registry is a plain Error, not the component's fault", async () => {
      const offline = createCompiler({ dataDir, registry: UNREACHABLE_REGISTRY });
      const code = 'import _ from "lodash@^4";\nexport default _;';
      const error: unknown = await offline.compile({ code }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(CompileError);
    });
  });

  describe("package cache", () => {
    /** An npm stand-in that answers `config list` and fails every install after writing part of it. */
    function failingNpm(errorCode: string): string {
      const script = path.join(scratchDir, `npm-${errorCode}`);
      fs.writeFileSync(
        script,
        [
          "#!/bin/sh",
          'if [ "$1" = config ]; then echo "{}"; exit 0; fi',
          'mkdir -p "$4/node_modules/half-installed"',
          `echo "npm error code ${errorCode}" >&2`,
          "exit 1",
        ].join("\n"),
        { mode: 0o755 },
      );
      return script;
    }

    it("a failed install leaves nothing behind, and is the package's fault only when npm says so", async () => {
      const code = 'import pad from "left-pad@1.3.0";\nexport default pad;';
      const lock = { "left-pad": "1.3.0" };
      const offline = createCompiler({ dataDir, npmCommand: failingNpm("ECONNRESET") });
      const error: unknown = await offline.compile({ code, lock }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(CompileError);
      const notFound = createCompiler({ dataDir, npmCommand: failingNpm("E404") });
      const compileError: unknown = await notFound.compile({ code, lock }).catch((thrown: unknown) => thrown);
      expect(compileError).toBeInstanceOf(CompileError);
      expect((compileError as CompileError).code).toBe("install_failed");
      expect(fs.existsSync(path.join(dataDir, "packages", "left-pad@1.3.0"))).toBe(false);
      expect(fs.readdirSync(path.join(dataDir, "packages", ".tmp"))).toEqual([]);
    });
  });

  describe("errors", () => {
    it("a syntax error gives its 1-based line and column", async () => {
      const error = await expectCompileError(
        "export default {\n  run() { return 1 +; },\n};\n",
        "syntax_error",
      );
      expect(error.location).toEqual({ line: 2, column: 21 });
      expect(error.message).toContain("line 2, column 21");
    });

    it("a syntax error in TypeScript is placed where TypeScript stops, not at the first annotation", async () => {
      const code = "const n: number = 1;\nexport default { run() { return n +; } };\n";
      const error = await expectCompileError(code, "syntax_error");
      expect(error.location).toEqual({ line: 2, column: 36 });
    });

    it("a relative import says to deploy with the CLI", async () => {
      const error = await expectCompileError(
        'import helper from "./x.mjs";\nexport default helper;',
        "relative_import",
      );
      expect(error.message).toContain("'./x.mjs' is a relative import");
      expect(error.message).toContain("CLI");
    });

    it(
      "an unknown package is named",
      async () => {
        const code = 'import x from "sluice-no-such-package-xyz-123";\nexport default x;';
        const error = await expectCompileError(code, "unknown_package");
        expect(error.message).toContain("sluice-no-such-package-xyz-123");
      },
      NETWORK_TIMEOUT,
    );

    it(
      "a version no release satisfies names the package, the range and the latest version",
      async () => {
        const error = await expectCompileError(
          'import _ from "lodash@99";\nexport default _;',
          "unsatisfiable_version",
        );
        expect(error.message).toContain("'lodash'");
        expect(error.message).toContain("'99'");
        expect(error.message).toMatch(/latest version is \d+\.\d+\.\d+/);
      },
      NETWORK_TIMEOUT,
    );

    it("two imports of one package whose versions conflict are refused", async () => {
      const code = [
        'import _ from "lodash@4.17.20";',
        'import fp from "lodash@4.17.21/fp";',
        "export default { _, fp };",
      ].join("\n");
      const error = await expectCompileError(code, "unsatisfiable_version");
      expect(error.message).toContain("'lodash@4.17.20' resolves to 4.17.20");
      expect(error.message).toContain("'lodash@4.17.21' resolves to 4.17.21");
    });

    it("a malformed specifier is refused before any look-up", async () => {
      for (const specifier of [
        "Bad Name!",
        "lodash@",
        "@scope",
        "lodash@^^1",
        "lodash/../../etc",
        "https://x.test/a.js",
      ]) {
        const error = await expectCompileError(
          `import x from "${specifier}";\nexport default x;`,
          "invalid_specifier",
        );
        expect(error.message).toContain(specifier);
      }
    });

    it(
      "a subpath the package does not have is a bundle failure naming it",
      async () => {
        const code = 'import x from "lodash@4.17.20/no-such-module";\nexport default x;';
        const error = await expectCompileError(code, "bundle_failed");
        expect(error.message).toContain("lodash@4.17.20/no-such-module");
      },
      NETWORK_TIMEOUT,
    );
  });
});
