/**
 * A prop whose options the component computes (async `options`, or a propDefinition's): a select
 * filled from `POST /v1/components/configure` with the props configured so far, page by page
 * ("Load more" while the answer's context has a nextPageToken), with a search box for a prop with
 * `useQuery`. A prop that turns out to declare no options (400 no_options) is a plain input.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { ConfigureResult } from "../../client/apps-client.js";
import { ApiError, errorMessage } from "../api.js";
import { appsClient } from "./apps-api.js";
import type { PropInputProps } from "./prop-input-props.js";
import { isRemoteValue } from "./prop-values.js";

interface PageParam {
  page: number;
  prev_context?: unknown;
}

interface Option {
  label: string;
  value: unknown;
}

function optionsOf(result: ConfigureResult): Option[] {
  if (result.options) {
    return result.options.map((option) =>
      typeof option === "object" && option !== null && "value" in option
        ? { label: String(option.label ?? option.value), value: option.value }
        : { label: String(option), value: option },
    );
  }
  return (result.stringOptions ?? []).map((option) => ({ label: option, value: option }));
}

/** How long the search waits after the last key before it asks the component (one call per pause). */
const SEARCH_DELAY_MS = 300;

function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

function nextPageToken(context: unknown): unknown {
  return typeof context === "object" && context !== null
    ? (context as { nextPageToken?: unknown }).nextPageToken
    : undefined;
}

export function RemoteOptionsInput(
  props: PropInputProps & { fallback: (props: PropInputProps) => React.ReactNode },
) {
  const { prop, id, value, onChange, describedBy, invalid, form, fallback: Fallback } = props;
  const [typed, setTyped] = useState("");
  const query = useDebounced(typed, SEARCH_DELAY_MS);
  const configured = form.configuredSoFar(prop.name);
  const options = useInfiniteQuery({
    queryKey: ["prop-options", form.componentId, prop.name, configured, form.dynamicPropsId, query],
    retry: false,
    initialPageParam: { page: 0 } as PageParam,
    queryFn: ({ pageParam }) =>
      appsClient.configure({
        id: form.componentId,
        prop_name: prop.name,
        configured_props: configured,
        ...(form.dynamicPropsId ? { dynamic_props_id: form.dynamicPropsId } : {}),
        ...(prop.useQuery === true && query ? { query } : {}),
        page: pageParam.page,
        ...(pageParam.prev_context !== undefined ? { prev_context: pageParam.prev_context } : {}),
      }),
    getNextPageParam: (last, all): PageParam | undefined =>
      nextPageToken(last.context) ? { page: all.length, prev_context: last.context } : undefined,
  });

  if (options.error instanceof ApiError && options.error.code === "no_options")
    return <Fallback {...props} />;

  const loaded = (options.data?.pages ?? []).flatMap(optionsOf);
  const errors = (options.data?.pages ?? []).flatMap((page) => page.errors);
  const chosen = isRemoteValue(value) ? JSON.stringify(value.value) : "";
  // The chosen option stays listed even when the current search or page does not hold it.
  const listed = loaded.some((option) => JSON.stringify(option.value) === chosen)
    ? loaded
    : isRemoteValue(value)
      ? [{ label: String(value.value), value: value.value }, ...loaded]
      : loaded;
  const label = prop.label ?? prop.name;

  return (
    <div className="remote-options">
      {prop.useQuery === true && (
        <input
          type="search"
          aria-label={`Search ${label}`}
          placeholder="Search…"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      )}
      <select
        id={id}
        value={chosen}
        onChange={(event) => {
          const picked = listed.find((option) => JSON.stringify(option.value) === event.target.value);
          onChange(picked ? { kind: "remote", value: picked.value } : undefined);
        }}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        aria-busy={options.isFetching}
      >
        <option value="">{prop.optional ? "(none)" : "Choose…"}</option>
        {listed.map((option) => (
          <option key={JSON.stringify(option.value)} value={JSON.stringify(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
      {options.isFetching && (
        <span className="muted" role="status">
          Loading options…
        </span>
      )}
      {options.hasNextPage && !options.isFetching && (
        <button type="button" className="secondary small" onClick={() => void options.fetchNextPage()}>
          Load more
        </button>
      )}
      {options.error ? (
        <p className="field-error" role="alert">
          Could not load the options: {errorMessage(options.error)}{" "}
          <button type="button" className="secondary small" onClick={() => void options.refetch()}>
            Retry
          </button>
        </p>
      ) : null}
      {errors.length > 0 && (
        <p className="field-error" role="alert">
          The component's options failed: {errors.join("; ")}
        </p>
      )}
    </div>
  );
}
