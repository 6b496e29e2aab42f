/**
 * The compiler's contract: a component's source (ESM, CommonJS or TypeScript) in, one ES module
 * out, importing Node built-ins and its lock's npm packages, which run as installed
 * (bundle-packages.ts). npm imports need no manifest (`pkg`, `pkg@1.2.3`, `pkg@^1.2`,
 * `@scope/pkg@2/sub`); a `lock` from an earlier compile pins the versions; relative imports are a
 * CompileError (the CLI bundles them). Callers import this file, not the implementation.
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
