/**
 * The compiler's contract: source code in, one ES module out, which imports Node built-ins and the
 * npm packages of its lock (run as installed, see bundle-packages.ts). Callers import this file,
 * not the implementation.
 *
 * - Accepts ESM, CommonJS and TypeScript components. `defineComponent`, `defineSource`,
 *   `defineAction` and `defineApp` (from `@pipedream/types` or elsewhere) are identity helpers.
 * - npm imports need no manifest. Specifiers may be plain (`pkg`: latest at compile time), exact
 *   (`pkg@1.2.3`), ranged (`pkg@^1.2`, `pkg@~1.2.0`), scoped (`@scope/pkg@2`) and carry subpaths
 *   (`pkg@1/sub/path`). Node built-ins (`fs`, `node:crypto`) stay external.
 * - Each package version is installed once, with its dependencies and without running install
 *   scripts, into a shared cache under the data directory; concurrent compiles share installs.
 * - A compile given a `lock` (from an earlier compile) uses exactly those versions.
 * - Relative imports cannot be resolved on the server (the CLI bundles them before upload): they
 *   are a CompileError saying so.
 */

export interface CompileRequest {
  /** The component's source code: one file. */
  readonly code: string;
  /** The file's name, when known (`.ts` selects TypeScript); used in error messages. */
  readonly filename?: string;
  /** Exact versions to use, by package name, as returned by an earlier compile. */
  readonly lock?: Readonly<Record<string, string>>;
}

export interface CompiledComponent {
  /** SHA-256 (hex) of the request's code. */
  readonly codeHash: string;
  /** SHA-256 (hex) of `bundle`; names the artifact on every node. */
  readonly bundleHash: string;
  /**
   * One ES module: the component's code. Node built-ins and npm packages stay imports; the first
   * line names the packages' exact versions (bundle-packages.ts).
   */
  readonly bundle: string;
  /** The npm packages the component imports directly, name → exact version. */
  readonly lock: Readonly<Record<string, string>>;
}

export type CompileErrorCode =
  | "syntax_error"
  | "relative_import"
  | "unknown_package"
  | "unsatisfiable_version"
  | "invalid_specifier"
  | "install_failed"
  | "bundle_failed";

/** A compile that failed because of the code (not the server): the message says what to fix. */
export class CompileError extends Error {
  override readonly name = "CompileError";
  constructor(
    readonly code: CompileErrorCode,
    message: string,
    /** 1-based position in the submitted file of a syntax error, or of the import that failed. */
    readonly location?: { readonly line: number; readonly column: number },
  ) {
    super(message);
  }
}

export interface Compiler {
  compile(request: CompileRequest): Promise<CompiledComponent>;
}
