/**
 * A workflow's steps, from the document to what is stored: each step pinned to a saved action
 * component (inline code is saved, a key resolves to its published version), its literal props
 * checked against the component and secret values sealed, its `{{ expressions }}` checked and
 * compiled into the workflow's evaluator. Props holding an expression are checked when the
 * step runs, once their values are known.
 */
import type { ComponentDefinition } from "../../runtime/component-definition.js";
import { checkAuthRefs } from "../apps/auth-refs.js";
import { configureProps } from "../components/props.js";
import { resolvePublished } from "../components/published.js";
import { getComponent, type SavedComponent, saveComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, NotFoundError, SluiceError } from "../errors.js";
import { sealProps } from "../sources/source-props.js";
import type { ComponentRef, StepSpec } from "./document.js";
import {
  buildEvaluator,
  checkHoles,
  type Evaluator,
  findHoles,
  type Hole,
  propsWithHoles,
} from "./expressions.js";

export interface StoredStep {
  readonly name: string;
  readonly componentId: string;
  readonly componentKey: string | null;
  readonly componentVersion: string | null;
  /** Literal values checked and sealed; values holding expressions as written. */
  readonly props: Record<string, unknown>;
  readonly holes: readonly Hole[];
  readonly timeoutSeconds: number | null;
}

export interface PreparedSteps {
  readonly steps: StoredStep[];
  readonly evaluator: Evaluator | null;
}

export async function prepareSteps(
  context: CoreContext,
  accountId: string,
  specs: readonly StepSpec[],
): Promise<PreparedSteps> {
  const steps: StoredStep[] = [];
  for (const spec of specs) {
    const where = `step '${spec.name}'`;
    const component = await resolveComponent(context, accountId, spec.component, where, spec.name);
    if (component.type !== "action") {
      throw new InvalidInputError(
        `${where}: ${component.name} is a source; a step runs an action (type: "action"). Sources go in the trigger (trigger: { uses: … })`,
        "not_an_action",
      );
    }
    const holes = findHoles(spec.props);
    checkHoles(spec.name, holes);
    const literal = literalProps(spec.props, holes);
    for (const name of propsWithHoles(holes)) {
      if (!component.definition.props.some((prop) => prop.name === name)) {
        const known = component.definition.props.map((prop) => prop.name).join(", ") || "none";
        throw new InvalidInputError(
          `${where}: prop '${name}': the component has no such prop (its props: ${known})`,
          "invalid_prop",
        );
      }
    }
    const values = await withPropContext(where, () =>
      configureProps(lenient(component.definition, holes), literal),
    );
    await checkAuthRefs(context, accountId, component.definition, values);
    // Only the values given are stored: defaults apply again at run time, after the expressions.
    const given = Object.fromEntries(Object.entries(values).filter(([name]) => name in literal));
    steps.push({
      name: spec.name,
      componentId: component.id,
      componentKey: component.key,
      componentVersion: component.version,
      props: {
        ...sealProps(component.definition, given, context.secrets),
        ...expressionProps(spec.props, holes),
      },
      holes,
      timeoutSeconds: spec.timeoutSeconds,
    });
  }
  return { steps, evaluator: buildEvaluator(steps.map((step) => step.holes)) };
}

/** The saved component a reference names: code is saved, a key resolves to its published version. */
export async function resolveComponent(
  context: CoreContext,
  accountId: string,
  ref: ComponentRef,
  where: string,
  defaultName?: string,
): Promise<SavedComponent> {
  return withPropContext(where, async () => {
    if ("code" in ref) return saveInline(context, accountId, ref, defaultName);
    if ("componentId" in ref) return getComponent(context, accountId, ref.componentId);
    return (await resolvePublished(context, accountId, ref.key)).component;
  });
}

/**
 * Saves inline code. A code step, as in Pipedream, need not name its component: when the code's
 * default export has no name, it is saved with the step's name (`export default` becomes a
 * constant, re-exported with the name added).
 */
async function saveInline(
  context: CoreContext,
  accountId: string,
  ref: { readonly code: string; readonly filename?: string },
  defaultName: string | undefined,
): Promise<SavedComponent> {
  const save = (code: string) =>
    saveComponent(context, accountId, {
      component_code: code,
      ...(ref.filename === undefined ? {} : { filename: ref.filename }),
    });
  try {
    return await save(ref.code);
  } catch (error) {
    const unnamed =
      error instanceof InvalidInputError &&
      error.code === "invalid_component" &&
      /has no name/.test(error.message);
    const exported = /\bexport\s+default\s+/;
    if (!unnamed || defaultName === undefined || !exported.test(ref.code)) throw error;
    return save(
      `${ref.code.replace(exported, "const __sluiceStep = ")}\nexport default { name: ${JSON.stringify(defaultName)}, ...__sluiceStep };\n`,
    );
  }
}

/** The definition with the props that hold expressions made optional (their values come later). */
function lenient(definition: ComponentDefinition, holes: readonly Hole[]): ComponentDefinition {
  const later = propsWithHoles(holes);
  return {
    ...definition,
    props: definition.props.map((prop) => (later.has(prop.name) ? { ...prop, optional: true } : prop)),
  };
}

function literalProps(props: Record<string, unknown>, holes: readonly Hole[]): Record<string, unknown> {
  const later = propsWithHoles(holes);
  return Object.fromEntries(Object.entries(props).filter(([name]) => !later.has(name)));
}

function expressionProps(props: Record<string, unknown>, holes: readonly Hole[]): Record<string, unknown> {
  const later = propsWithHoles(holes);
  return Object.fromEntries(Object.entries(props).filter(([name]) => later.has(name)));
}

/** Errors about a step's component or props name the step. */
async function withPropContext<T>(where: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new InvalidInputError(`${where}: ${error.message}`, "unknown_component");
    }
    if (error instanceof SluiceError && error.kind === "invalid" && !error.message.startsWith(where)) {
      throw new InvalidInputError(`${where}: ${error.message}`, error.code);
    }
    throw error;
  }
}
