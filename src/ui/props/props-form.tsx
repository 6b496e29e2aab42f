/**
 * The configuration form, generated from a component's props: a label, an input chosen by type,
 * help, and the error for that prop, whether the browser found it (bad JSON, over 64 KB) or the
 * server did (`prop '<name>': …`).
 */
import { useState } from "react";
import type { ConfigurableProp } from "../../client/types.js";
import { errorMessage } from "../api.js";
import { propInputFor } from "./prop-inputs.js";
import {
  configuredValue,
  type FormValue,
  initialValue,
  isConfigurable,
  PropValueError,
  propOfMessage,
} from "./prop-values.js";

export interface PropsFormProps {
  props: readonly ConfigurableProp[];
  configured?: Record<string, unknown>;
  submitLabel: string;
  /** Other fields shown above the props (the source's name). */
  children?: React.ReactNode;
  onSubmit: (configured: Record<string, unknown>, form: HTMLFormElement) => Promise<void>;
}

export function PropsForm({ props, configured = {}, submitLabel, children, onSubmit }: PropsFormProps) {
  const shown = props.filter(isConfigurable);
  const [values, setValues] = useState<Record<string, FormValue>>(() =>
    Object.fromEntries(shown.map((prop) => [prop.name, initialValue(prop, configured[prop.name])])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  return (
    <form
      className="props-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const found: Record<string, string> = {};
        const result: Record<string, unknown> = {};
        for (const prop of shown) {
          if (!propInputFor(prop)) continue;
          try {
            const value = configuredValue(prop, values[prop.name]);
            if (value !== undefined) result[prop.name] = value;
          } catch (error) {
            if (!(error instanceof PropValueError)) throw error;
            found[prop.name] = error.message;
          }
        }
        setErrors(found);
        setFormError(null);
        if (Object.keys(found).length > 0) return;
        setBusy(true);
        try {
          await onSubmit(result, form);
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
      {shown.map((prop) => {
        const Input = propInputFor(prop);
        const id = `prop-${prop.name}`;
        const error = errors[prop.name];
        const describedBy = error ? `${id}-error` : `${id}-help`;
        return (
          <div className="field" key={prop.name}>
            <label htmlFor={id}>{prop.label ?? prop.name}</label>
            {prop.optional ? <span className="muted optional">optional</span> : null}
            {Input ? (
              <Input
                prop={prop}
                id={id}
                value={values[prop.name]}
                onChange={(value) => setValues((current) => ({ ...current, [prop.name]: value }))}
                describedBy={describedBy}
                invalid={error !== undefined}
              />
            ) : (
              <p className="notice" id={id}>
                This prop ({prop.type}
                {prop.app ? `: ${String(prop.app)}` : ""}) cannot be configured in the web UI yet; use the CLI
                or the REST API.
              </p>
            )}
            {error ? (
              <p className="field-error" id={`${id}-error`} role="alert">
                {error}
              </p>
            ) : (
              <p className="help" id={`${id}-help`}>
                {prop.description ??
                  `${prop.type}${typeof prop.min === "number" ? `, at least ${prop.min}` : ""}${typeof prop.max === "number" ? `, at most ${prop.max}` : ""}`}
              </p>
            )}
          </div>
        );
      })}
      {formError && (
        <p className="field-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? "Working…" : submitLabel}
      </button>
    </form>
  );
}
