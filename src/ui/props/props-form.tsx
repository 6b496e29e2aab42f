/**
 * The configuration form, generated from a component's props: a label, an input chosen by type,
 * help, and the error for that prop, whether the browser found it (bad JSON, over 64 KB) or the
 * server did (`prop '<name>': …`).
 */
import { useState } from "react";
import type { ConfigurableProp } from "../../client/types.js";
import { errorMessage } from "../api.js";
import { ActionError } from "../components/status.js";
import type { FormContext } from "./prop-input-props.js";
import { propInputFor } from "./prop-inputs.js";
import { type FormValue, propOfMessage } from "./prop-values.js";
import { readValues, usePropsFormState } from "./props-form-state.js";

export interface PropsFormProps {
  /** The component key, sc_ or dc_ id: what loads remote options and reloads props. */
  componentId: string;
  props: readonly ConfigurableProp[];
  /**
   * The component has additionalProps (`has_additional_props`): its full props come from
   * `POST /v1/components/props`, asked once the form shows, and again after a reloadProps prop changes.
   */
  hasAdditionalProps?: boolean;
  configured?: Record<string, unknown>;
  submitLabel: string;
  /** Other fields shown above the props (the source's name). */
  children?: React.ReactNode;
  /**
   * dynamicPropsId: the dyp_ id to deploy with, once the props were reloaded; shown: the props the
   * form showed (with the additional ones).
   */
  onSubmit: (
    configured: Record<string, unknown>,
    form: HTMLFormElement,
    dynamicPropsId: string | undefined,
    shown: readonly ConfigurableProp[],
  ) => Promise<void>;
}

export function PropsForm({
  componentId,
  props,
  hasAdditionalProps = false,
  configured = {},
  submitLabel,
  children,
  onSubmit,
}: PropsFormProps) {
  const state = usePropsFormState({ componentId, props, hasAdditionalProps, configured });
  const { shown, values, errors, setErrors } = state;
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form: FormContext = {
    componentId,
    ...(state.dynamicPropsId ? { dynamicPropsId: state.dynamicPropsId } : {}),
    configuredSoFar: (name) =>
      readValues(
        shown.slice(
          0,
          shown.findIndex((prop) => prop.name === name),
        ),
        values,
      ).configured,
  };

  return (
    <form
      className="props-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const element = event.currentTarget;
        const { configured: result, invalid } = readValues(shown, values);
        setErrors(invalid);
        setFormError(null);
        if (Object.keys(invalid).length > 0) return;
        setBusy(true);
        try {
          await onSubmit(result, element, state.dynamicPropsId, shown);
        } catch (error) {
          const message = errorMessage(error);
          const prop = propOfMessage(message);
          if (prop && shown.some((candidate) => candidate.name === prop)) setErrors({ [prop]: message });
          else setFormError(message);
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
      {shown.length === 0 && <p className="muted">This component has no props to configure.</p>}
      {shown.map((prop) => (
        <PropField
          key={prop.name}
          prop={prop}
          value={values[prop.name]}
          error={errors[prop.name]}
          onChange={(value) => state.change(prop, value)}
          form={form}
        />
      ))}
      {state.reloading && (
        <p className="muted" role="status">
          Loading the component's props…
        </p>
      )}
      <ActionError error={state.reloadError} />
      <ActionError error={formError} />
      <button type="submit" disabled={busy || state.reloading}>
        {busy ? "Working…" : submitLabel}
      </button>
    </form>
  );
}

/** One prop: its label, its input (or why the web UI cannot configure it), and its error or help. */
function PropField({
  prop,
  value,
  error,
  onChange,
  form,
}: {
  prop: ConfigurableProp;
  value: FormValue;
  error: string | undefined;
  onChange: (value: FormValue) => void;
  form: FormContext;
}) {
  const Input = propInputFor(prop);
  const id = `prop-${prop.name}`;
  const describedBy = error ? `${id}-error` : `${id}-help`;
  return (
    <div className="field">
      <label htmlFor={id}>{prop.label ?? prop.name}</label>
      {prop.optional ? <span className="muted optional">optional</span> : null}
      {Input ? (
        <Input
          prop={prop}
          id={id}
          value={value}
          onChange={onChange}
          describedBy={describedBy}
          invalid={error !== undefined}
          form={form}
        />
      ) : (
        <p className="notice" id={id}>
          This prop ({prop.type}
          {prop.app ? `: ${String(prop.app)}` : ""}) cannot be configured in the web UI yet; use the CLI or
          the REST API.
        </p>
      )}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : (
        <p className="help" id={`${id}-help`}>
          {prop.description ??
            (prop.type === "app" ? `A connected ${String(prop.app)} account` : undefined) ??
            `${prop.type}${typeof prop.min === "number" ? `, at least ${prop.min}` : ""}${typeof prop.max === "number" ? `, at most ${prop.max}` : ""}`}
        </p>
      )}
    </div>
  );
}
