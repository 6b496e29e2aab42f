/**
 * The configuration form, generated from a component's props: a label, an input chosen by type,
 * help, and the error for that prop, whether the browser found it (bad JSON, over 64 KB) or the
 * server did (`prop '<name>': …`).
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { ReloadPropsResult } from "../../client/apps-client.js";
import type { ConfigurableProp } from "../../client/types.js";
import { errorMessage } from "../api.js";
import { appsClient } from "./apps-api.js";
import type { FormContext } from "./prop-input-props.js";
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

/** How long a typed change waits before the props reload (one call per pause, not per key). */
const RELOAD_DELAY_MS = 400;

export function PropsForm({
  componentId,
  props,
  hasAdditionalProps = false,
  configured = {},
  submitLabel,
  children,
  onSubmit,
}: PropsFormProps) {
  const [dynamic, setDynamic] = useState<{ id: string; props: ConfigurableProp[] } | null>(null);
  const shown = (dynamic?.props ?? props).filter(isConfigurable);
  const [values, setValues] = useState<Record<string, FormValue>>(() =>
    Object.fromEntries(shown.map((prop) => [prop.name, initialValue(prop, configured[prop.name])])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** A reload's error that belongs to no prop. */
  const [reloadError, setReloadError] = useState<string | null>(null);

  /** The configured values of the given props, leaving out what is empty or does not parse. */
  const configuredOf = (of: readonly ConfigurableProp[], from: Record<string, FormValue>) => {
    const result: Record<string, unknown> = {};
    for (const prop of of) {
      if (!propInputFor(prop)) continue;
      try {
        const value = configuredValue(prop, from[prop.name]);
        if (value !== undefined) result[prop.name] = value;
      } catch (error) {
        if (!(error instanceof PropValueError)) throw error;
      }
    }
    return result;
  };
  const form: FormContext = {
    componentId,
    ...(dynamic ? { dynamicPropsId: dynamic.id } : {}),
    configuredSoFar: (name) =>
      configuredOf(
        shown.slice(
          0,
          shown.findIndex((prop) => prop.name === name),
        ),
        values,
      ),
  };

  // reloadProps: after such a prop changes, ask the component for its props again. Only the
  // latest call's answer is used, so answers arriving out of order cannot bring back old props.
  const latestReload = useRef(0);
  const reload = useMutation({
    mutationFn: (input: { changed: string | undefined; configured: Record<string, unknown>; seq: number }) =>
      appsClient.reloadProps({ id: componentId, configured_props: input.configured }),
    onSuccess: (result, input) => {
      if (input.seq !== latestReload.current) return;
      // A failure the component did not mark as a ConfigurationError comes back in `errors`.
      const dynamicProps = result.dynamicProps as ReloadPropsResult["dynamicProps"] | null;
      if (!dynamicProps) {
        showReloadErrors(input.changed, [
          result.errors.join("; ") || "The component's props could not be reloaded",
        ]);
        return;
      }
      const next = dynamicProps.configurableProps as unknown as ConfigurableProp[];
      setDynamic({ id: dynamicProps.id, props: next });
      setValues((current) =>
        Object.fromEntries(
          next
            .filter(isConfigurable)
            .map((prop) => [
              prop.name,
              prop.name in current ? current[prop.name] : initialValue(prop, configured[prop.name]),
            ]),
        ),
      );
      setReloadError(null);
      showReloadErrors(input.changed, result.errors);
    },
    onError: (error, input) => {
      if (input.seq !== latestReload.current) return;
      const message = errorMessage(error);
      const prop = propOfMessage(message);
      if (prop) setErrors({ [prop]: message });
      else showReloadErrors(input.changed, [message]);
    },
  });
  /** The reload's errors: at the prop that changed, or for the first load at the first reloadProps prop. */
  const showReloadErrors = (changed: string | undefined, messages: string[]) => {
    const at = changed ?? shown.find((prop) => prop.reloadProps === true)?.name;
    if (messages.length === 0) setErrors({});
    else if (at) setErrors({ [at]: messages.join("; ") });
    else setReloadError(messages.join("; "));
  };
  const startReload = (changed: string | undefined, from: Record<string, FormValue>) => {
    latestReload.current += 1;
    reload.mutate({ changed, configured: configuredOf(shown, from), seq: latestReload.current });
  };
  // additionalProps without a changed prop: the form asks for the full props once, as it shows.
  const loadedOnce = useRef(false);
  useEffect(() => {
    if (!hasAdditionalProps || loadedOnce.current) return;
    loadedOnce.current = true;
    startReload(undefined, values);
  });
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(reloadTimer.current), []);
  const change = (prop: ConfigurableProp, value: FormValue) => {
    const next = { ...values, [prop.name]: value };
    setValues(next);
    if (prop.reloadProps !== true) return;
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(
      () => startReload(prop.name, next),
      typeof value === "string" ? RELOAD_DELAY_MS : 0,
    );
  };

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
          await onSubmit(result, form, dynamic?.id, shown);
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
                onChange={(value) => change(prop, value)}
                describedBy={describedBy}
                invalid={error !== undefined}
                form={form}
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
                  (prop.type === "app" ? `A connected ${String(prop.app)} account` : undefined) ??
                  `${prop.type}${typeof prop.min === "number" ? `, at least ${prop.min}` : ""}${typeof prop.max === "number" ? `, at most ${prop.max}` : ""}`}
              </p>
            )}
          </div>
        );
      })}
      {reload.isPending && (
        <p className="muted" role="status">
          Loading the component's props…
        </p>
      )}
      {reloadError && (
        <p className="field-error" role="alert">
          {reloadError}
        </p>
      )}
      {formError && (
        <p className="field-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" disabled={busy || reload.isPending}>
        {busy ? "Working…" : submitLabel}
      </button>
    </form>
  );
}
