/**
 * Imports a package laid out as Pipedream's registry is (`<app>.app.mjs`, `sources/`, `actions/`,
 * shared `common/`), from npm or the files of a local folder, publishing each source and action
 * bundled with its relative imports. One that fails is reported with its reason and the import
 * goes on; one already published with the same code is skipped, so importing again changes nothing.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CompileError } from "../../../runtime/compile/compiler.js";
import { bundledFileName, bundleLocalImports } from "../../../runtime/compile/local-bundle.js";
import type { Account } from "../../accounts/accounts.js";
import type { CoreContext } from "../../context.js";
import { ForbiddenError, InvalidInputError, SluiceError } from "../../errors.js";
import { publishComponent, resolvePublished } from "../published.js";
import { publishPublic } from "../registry.js";
import { saveComponent } from "../saved-components.js";

export interface ImportInput {
  /** `npm:<spec>`: a package the server fetches from the npm registry. */
  readonly npm?: unknown;
  /** A local folder's files, path (relative, `/`-separated) → content. */
  readonly files?: unknown;
  /** `public` (admins only) or `private` (default). */
  readonly registry?: unknown;
}

export interface ImportedComponent {
  /** The component's file in the package, such as `actions/base64-decode-string/base64-decode-string.mjs`. */
  readonly file: string;
  readonly status: "published" | "skipped" | "failed";
  readonly key: string | null;
  readonly version: string | null;
  readonly reason?: string;
}

export interface ImportReport {
  readonly registry: "public" | "private";
  readonly components: ImportedComponent[];
}

const COMPONENT_FILE = /\.(mjs|js|cjs|ts)$/;
const MAX_FILES = 5000;

/** A package unpacked in a temporary folder, its components found; `discard` removes the folder. */
export interface PreparedImport {
  readonly registry: "public" | "private";
  /** `npm:<spec>`, or `files` for a folder's files. */
  readonly source: string;
  readonly root: string;
  /** The component files, relative to `root`, in the order they are imported. */
  readonly files: readonly string[];
  discard(): Promise<void>;
}

/**
 * Checks the request and unpacks the package: every error a user can fix before anything is
 * published (a registry the account may not use, an npm spec that does not exist, a folder with
 * no components) is thrown from here.
 */
export async function prepareImport(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  input: ImportInput,
): Promise<PreparedImport> {
  const registry = input.registry === undefined || input.registry === null ? "private" : input.registry;
  if (registry !== "public" && registry !== "private") {
    throw new InvalidInputError("registry must be public or private", "invalid_registry");
  }
  if (registry === "public" && !account.isAdmin) {
    throw new ForbiddenError("Only an admin can import into the public registry", "admin_required");
  }
  const temp = await fs.mkdtemp(path.join(os.tmpdir(), "sluice-import-"));
  const discard = () => fs.rm(temp, { recursive: true, force: true });
  try {
    const root = path.join(temp, "package");
    const source = await unpack(context, input, root);
    const files = await componentFiles(root);
    if (files.length === 0) {
      throw new InvalidInputError(
        "The package has no components: expected sources/<name>/<name>.mjs or actions/<name>/<name>.mjs (Pipedream's layout)",
        "no_components",
      );
    }
    return { registry, source, root, files, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

/** Imports the whole package before it returns (`POST /v1/registry/import`). */
export async function importPackage(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  input: ImportInput,
): Promise<ImportReport> {
  const prepared = await prepareImport(context, account, input);
  try {
    const components: ImportedComponent[] = [];
    for (const file of prepared.files)
      components.push(await importComponent(context, account, prepared, file));
    return { registry: prepared.registry, components };
  } finally {
    await prepared.discard();
  }
}

/** Unpacks the package into `root`; resolves to where it came from (`npm:<spec>` or `files`). */
async function unpack(context: CoreContext, input: ImportInput, root: string): Promise<string> {
  if (typeof input.npm === "string" && input.npm !== "") {
    const spec = input.npm.replace(/^npm:/, "");
    try {
      await context.fetchPackage(spec, root);
    } catch (error) {
      if (error instanceof CompileError) throw new InvalidInputError(error.message, error.code);
      throw error;
    }
    return `npm:${spec}`;
  }
  if (typeof input.files === "object" && input.files !== null && !Array.isArray(input.files)) {
    const entries = Object.entries(input.files as Record<string, unknown>);
    if (entries.length > MAX_FILES)
      throw new InvalidInputError(`A package may have at most ${MAX_FILES} files`);
    for (const [name, content] of entries) {
      const target = path.resolve(root, name);
      if (typeof content !== "string" || !target.startsWith(`${root}${path.sep}`) || name.includes("\\")) {
        throw new InvalidInputError(
          `files['${name}'] must be the text of a file inside the package (a relative path)`,
        );
      }
      await writePackageFile(name, target, content);
    }
    return "files";
  }
  throw new InvalidInputError("Pass npm (npm:<package>@<version>) or files (a folder's files, path → text)");
}

/**
 * Writes one file sent by the client. A path the file system cannot hold (a name over 255 bytes,
 * a file where another path needs a folder) is the client's to fix, so it is refused by name.
 */
async function writePackageFile(name: string, target: string, content: string): Promise<void> {
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENAMETOOLONG" || code === "ENOTDIR" || code === "EISDIR" || code === "EEXIST") {
      throw new InvalidInputError(
        `files['${name.length > 80 ? `${name.slice(0, 80)}…` : name}'] cannot be written: ${
          code === "ENAMETOOLONG"
            ? "a name in its path is longer than 255 bytes"
            : "its path clashes with another file's (a file where a folder is needed)"
        }`,
        "invalid_file_path",
      );
    }
    throw error;
  }
}

/** `sources/<name>/<name>.<ext>` and `actions/<name>/<name>.<ext>`, sorted; `common` folders are shared code. */
async function componentFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const kind of ["sources", "actions"]) {
    const dirs = await fs.readdir(path.join(root, kind), { withFileTypes: true }).catch(() => []);
    for (const dir of dirs) {
      if (!dir.isDirectory() || dir.name === "common") continue;
      const files = await fs.readdir(path.join(root, kind, dir.name)).catch(() => [] as string[]);
      const main = files.find(
        (name) => COMPONENT_FILE.test(name) && name.replace(COMPONENT_FILE, "") === dir.name,
      );
      if (main !== undefined) found.push(`${kind}/${dir.name}/${main}`);
    }
  }
  return found.sort();
}

/** Bundles, saves and publishes one component of the package; a failure is reported, not thrown. */
export async function importComponent(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  { registry, root }: Pick<PreparedImport, "registry" | "root">,
  file: string,
): Promise<ImportedComponent> {
  let key: string | null = null;
  let version: string | null = null;
  try {
    // Nothing outside the package may be read: a relative import that leaves it is refused.
    const bundled = await bundleLocalImports(path.join(root, file), { confineTo: root });
    const component = await saveComponent(context, account.id, {
      component_code: bundled.code,
      filename: bundledFileName(file, bundled.format),
    });
    key = component.key;
    version = component.version;
    if (registry === "public") {
      const result = await publishPublic(context, account, { component_id: component.id });
      return { file, status: result.created ? "published" : "skipped", key, version };
    }
    const before = await resolvePublished(context, account.id, `${key ?? ""}@${version ?? ""}`).catch(
      () => undefined,
    );
    await publishComponent(context, account.id, { component_id: component.id });
    return { file, status: before?.component.id === component.id ? "skipped" : "published", key, version };
  } catch (error) {
    const reason =
      error instanceof SluiceError
        ? `${error.message} (${error.code})`
        : error instanceof Error
          ? error.message
          : String(error);
    return { file, status: "failed", key, version, reason };
  }
}
