/**
 * A workflow document read from a YAML or JSON file (JSON is read as YAML, which it is), checked
 * only as far as the CLI needs to bundle its files and point at mistakes by line: a mapping with a
 * `name` and a list of named `steps`, each naming its component once. Everything else (prop
 * values, trigger shapes, limits) is the server's to check.
 */
import fs from "node:fs";
import path from "node:path";
import { isCollection, isMap, LineCounter, parseDocument, visit } from "yaml";
import { UsageError } from "./output.js";

/** The keys that name a step's (or a trigger's) component: exactly one of them. */
export const COMPONENT_KEYS = ["uses", "code", "key", "component_id"] as const;

export interface WorkflowFile {
  /** The file as the user named it, for messages. */
  readonly file: string;
  /** Where relative `uses:` paths are resolved. */
  readonly dir: string;
  readonly document: WorkflowDocument;
  /** `file:line` of a place in the document (`["steps", 0]`), or `file` when it has no position. */
  where(at: readonly (string | number)[]): string;
}

export interface WorkflowDocument {
  name: string;
  trigger?: unknown;
  steps: DocumentStep[];
  [field: string]: unknown;
}

export interface DocumentStep {
  name: string;
  uses?: unknown;
  [field: string]: unknown;
}

export function readWorkflowFile(file: string): WorkflowFile {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat?.isDirectory())
    throw new UsageError(`${file} is a directory; give the workflow's YAML or JSON file`);
  if (!stat?.isFile()) throw new UsageError(`No such file: ${file}`);
  const lines = new LineCounter();
  const parsed = parseDocument(fs.readFileSync(file, "utf8"), { lineCounter: lines });
  const [error] = parsed.errors;
  if (error) {
    const at = error.linePos?.[0];
    const more = parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more)` : "";
    const position = at ? `:${at.line}:${at.col}` : "";
    throw new UsageError(`${file}${position}: not valid YAML or JSON: ${firstLine(error.message)}${more}`);
  }
  refuseUnquotedExpressions(parsed, (offset) => `${file}:${lines.linePos(offset).line}`);

  const where = (at: readonly (string | number)[]): string => {
    const node = parsed.getIn(at, true) as { range?: [number, number, number] } | undefined;
    return node?.range ? `${file}:${lines.linePos(node.range[0]).line}` : file;
  };
  return { file, dir: path.dirname(path.resolve(file)), document: checked(parsed.toJS(), where), where };
}

/**
 * In YAML, `order: {{steps.trigger.event}}` is a mapping inside a mapping, not text: the value
 * silently becomes an object. Such a key is never meant, so it is reported with the fix.
 */
function refuseUnquotedExpressions(
  parsed: ReturnType<typeof parseDocument>,
  where: (offset: number) => string,
): void {
  visit(parsed, {
    Pair(_, pair) {
      if (isCollection(pair.key)) {
        const offset = isMap(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
        throw new UsageError(
          `${where(offset)}: a {{ }} expression must be quoted in YAML, for example: order: "{{steps.trigger.event.body}}"`,
        );
      }
    },
  });
}

function checked(value: unknown, where: WorkflowFile["where"]): WorkflowDocument {
  if (!isRecord(value)) {
    throw new UsageError(`${where([])}: a workflow document is a mapping with a name and steps`);
  }
  if (typeof value.name !== "string" || value.name.trim() === "") {
    throw new UsageError(`${where([])}: the workflow needs a name (name: order-flow)`);
  }
  const steps = value.steps;
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new UsageError(`${where(["steps"])}: the workflow needs a list of steps (steps: - name: …)`);
  }
  const seen = new Set<string>();
  steps.forEach((step: unknown, index) => {
    const at = where(["steps", index]);
    if (!isRecord(step) || typeof step.name !== "string" || step.name.trim() === "") {
      throw new UsageError(`${at}: step ${index + 1} needs a name (- name: enrich)`);
    }
    if (seen.has(step.name)) throw new UsageError(`${at}: two steps are named '${step.name}'`);
    seen.add(step.name);
    const named = COMPONENT_KEYS.filter((key) => step[key] !== undefined && step[key] !== null);
    if (named.length !== 1) {
      const problem = named.length === 0 ? "names no component" : `has both ${named.join(" and ")}`;
      throw new UsageError(
        `${at}: step '${step.name}' ${problem}; give exactly one of uses (a file, key or sc_ id), code, key or component_id`,
      );
    }
  });
  return value as WorkflowDocument;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The parser's message without the position and excerpt it appends (the position is printed first). */
function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "");
}
