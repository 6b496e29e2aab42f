/**
 * The state of the props form: the props shown (reloaded ones once a reloadProps prop changes or
 * the component has additionalProps), their values, and the errors at each prop.
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { ReloadPropsResult } from "../../client/apps-client.js";
import type { ConfigurableProp } from "../../client/types.js";
import { errorMessage } from "../api.js";
import { appsClient } from "./apps-api.js";
import { propInputFor } from "./prop-inputs.js";
import {
  configuredValue,
  type FormValue,
  initialValue,
  isConfigurable,
  PropValueError,
  propOfMessage,
} from "./prop-values.js";

/** How long a typed change waits before the props reload (one call per pause, not per key). */
const RELOAD_DELAY_MS = 400;

/** The configured values of `of` as the API takes them, and the message of each value that does not parse. */
export function readValues(
  of: readonly ConfigurableProp[],
  from: Record<string, FormValue>,
): { configured: Record<string, unknown>; invalid: Record<string, string> } {
  const configured: Record<string, unknown> = {};
  const invalid: Record<string, string> = {};
  for (const prop of of) {
    if (!propInputFor(prop)) continue;
    try {
      const value = configuredValue(prop, from[prop.name]);
      if (value !== undefined) configured[prop.name] = value;
    } catch (error) {
      if (!(error instanceof PropValueError)) throw error;
      invalid[prop.name] = error.message;
    }
  }
  return { configured, invalid };
}

export function usePropsFormState({
  componentId,
  props,
  hasAdditionalProps,
  configured,
}: {
  componentId: string;
  props: readonly ConfigurableProp[];
  hasAdditionalProps: boolean;
  configured: Record<string, unknown>;
}) {
  const [dynamic, setDynamic] = useState<{ id: string; props: ConfigurableProp[] } | null>(null);
  const shown = (dynamic?.props ?? props).filter(isConfigurable);
  const [values, setValues] = useState<Record<string, FormValue>>(() =>
    Object.fromEntries(shown.map((prop) => [prop.name, initialValue(prop, configured[prop.name])])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** A reload's error that belongs to no prop. */
  const [reloadError, setReloadError] = useState<string | null>(null);

  /** The reload's errors: at the prop that changed, or for the first load at the first reloadProps prop. */
  const showReloadErrors = (changed: string | undefined, messages: string[]) => {
    const at = changed ?? shown.find((prop) => prop.reloadProps === true)?.name;
    if (messages.length === 0) setErrors({});
    else if (at) setErrors({ [at]: messages.join("; ") });
    else setReloadError(messages.join("; "));
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
  const startReload = (changed: string | undefined, from: Record<string, FormValue>) => {
    latestReload.current += 1;
    reload.mutate({ changed, configured: readValues(shown, from).configured, seq: latestReload.current });
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

  return {
    dynamicPropsId: dynamic?.id,
    shown,
    values,
    change,
    errors,
    setErrors,
    reloadError,
    reloading: reload.isPending,
  };
}
