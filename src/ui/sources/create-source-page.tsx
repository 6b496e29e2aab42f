/**
 * Create a source: from a key (`?action=create&key=`), a URL (`&url=`), pasted code or an
 * uploaded file. The code is saved first (which tells its props), then the form deploys it.
 * Nothing is deployed until the form is submitted, so a bad URL or bad code creates nothing.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import type { Component } from "../../client/types.js";
import { api, errorMessage } from "../api.js";
import { RadioChoice } from "../components/radio-choice.js";
import { recheckSession } from "../components/session.js";
import { FieldMessage, Loading } from "../components/status.js";
import { PropsForm } from "../props/props-form.js";

type Origin = "key" | "url" | "code" | "file";
const ORIGINS: { value: Origin; label: string }[] = [
  { value: "key", label: "Published key" },
  { value: "url", label: "URL" },
  { value: "code", label: "Paste code" },
  { value: "file", label: "Upload a file" },
];

interface Loaded {
  /** The saved component (`sc_…`) to deploy. */
  component: Pick<
    Component,
    "id" | "name" | "key" | "version" | "configurable_props" | "has_additional_props"
  >;
}

export function CreateSourcePage() {
  const params = new URLSearchParams(useSearch());
  const initialKey = params.get("key") ?? "";
  const initialUrl = params.get("url") ?? "";
  const [origin, setOrigin] = useState<Origin>(initialUrl ? "url" : initialKey ? "key" : "code");
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  // The deploy links of SPEC.md load their component at once.
  const fromLink = useQuery({
    queryKey: ["create-from-link", initialKey, initialUrl],
    enabled: initialKey !== "" || initialUrl !== "",
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<Loaded> =>
      initialUrl
        ? { component: await api.saveComponent({ component_url: initialUrl }) }
        : { component: await fromKey(initialKey) },
  });
  const current = loaded ?? fromLink.data ?? null;

  return (
    <section>
      <h1>New source</h1>
      {current ? (
        <DeployForm loaded={current} onBack={() => setLoaded(null)} />
      ) : (
        <>
          <RadioChoice
            name="origin"
            legend="Where the component comes from"
            className="origins"
            options={ORIGINS}
            value={origin}
            onChange={setOrigin}
          />
          {fromLink.isFetching && <Loading what="the component" />}
          <LoadForm
            origin={origin}
            initial={origin === "url" ? initialUrl : initialKey}
            linkError={fromLink.error}
            onLoaded={setLoaded}
          />
        </>
      )}
    </section>
  );
}

/** As `sluice deploy <key>` finds it: the account's own key first, else the public registry's (copied in). */
function fromKey(key: string): Promise<Loaded["component"]> {
  return api.componentForKey(key);
}

function LoadForm({
  origin,
  initial,
  linkError,
  onLoaded,
}: {
  origin: Origin;
  initial: string;
  linkError: unknown;
  onLoaded: (loaded: Loaded) => void;
}) {
  const queryClient = useQueryClient();
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const error = touched ? submitted : linkError ? errorMessage(linkError) : null;
  const setError = (message: string | null) => {
    setTouched(true);
    setSubmitted(message);
  };
  const fieldId = `origin-${origin}`;
  const labels: Record<Origin, string> = {
    key: "Component key",
    url: "Component URL",
    code: "Component code",
    file: "Component file",
  };
  return (
    <form
      key={origin}
      onSubmit={async (event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        setBusy(true);
        setError(null);
        try {
          if (origin === "key") onLoaded({ component: await fromKey(String(data.get("value")).trim()) });
          else if (origin === "url")
            onLoaded({
              component: await api.saveComponent({ component_url: String(data.get("value")).trim() }),
            });
          else if (origin === "code")
            onLoaded({ component: await api.saveComponent({ component_code: String(data.get("value")) }) });
          else {
            const file = data.get("value");
            if (!(file instanceof File) || file.size === 0) throw new Error("Choose a file");
            onLoaded({
              component: await api.saveComponent({ component_code: await file.text(), filename: file.name }),
            });
          }
        } catch (failure) {
          // An expired session goes to sign-in and back here, as the query and mutation caches do.
          recheckSession(queryClient, failure);
          setError(errorMessage(failure));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label htmlFor={fieldId}>{labels[origin]}</label>
      {origin === "code" ? (
        <textarea
          id={fieldId}
          name="value"
          className="code"
          rows={14}
          spellCheck={false}
          aria-invalid={error !== null}
          aria-describedby={`${fieldId}-msg`}
        />
      ) : origin === "file" ? (
        <input
          id={fieldId}
          name="value"
          type="file"
          accept=".js,.mjs,.cjs,.ts"
          aria-invalid={error !== null}
          aria-describedby={`${fieldId}-msg`}
        />
      ) : (
        <input
          id={fieldId}
          name="value"
          type={origin === "url" ? "url" : "text"}
          defaultValue={initial}
          placeholder={origin === "url" ? "https://…/source.mjs" : "my-app-new-item"}
          aria-invalid={error !== null}
          aria-describedby={`${fieldId}-msg`}
        />
      )}
      <FieldMessage id={`${fieldId}-msg`} error={error}>
        The component is checked and its props are shown next; nothing is deployed yet.
      </FieldMessage>
      <button type="submit" disabled={busy}>
        {busy ? "Loading…" : "Continue"}
      </button>
    </form>
  );
}

function DeployForm({ loaded, onBack }: { loaded: Loaded; onBack: () => void }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { component } = loaded;
  const deploy = useMutation({
    mutationFn: (input: { name: string; configured: Record<string, unknown>; dynamicPropsId?: string }) =>
      api.deploySource({
        component_id: component.id,
        configured_props: input.configured,
        ...(input.dynamicPropsId ? { dynamic_props_id: input.dynamicPropsId } : {}),
        ...(input.name ? { name: input.name } : {}),
      }),
    onSuccess: (source) => {
      void queryClient.invalidateQueries({ queryKey: ["sources"] });
      navigate(`/sources/${source.id}`);
    },
  });
  return (
    <>
      <p>
        Component <strong>{component.name}</strong>
        {component.key ? (
          <span className="mono">
            {" "}
            {component.key}
            {component.version ? `@${component.version}` : ""}
          </span>
        ) : null}{" "}
        <button type="button" className="secondary small" onClick={onBack}>
          Change
        </button>
      </p>
      <PropsForm
        componentId={component.id}
        props={component.configurable_props}
        hasAdditionalProps={component.has_additional_props === true}
        submitLabel="Deploy"
        onSubmit={async (configured, form, dynamicPropsId) => {
          const name = String(new FormData(form).get("source_name") ?? "").trim();
          await deploy.mutateAsync({ name, configured, ...(dynamicPropsId ? { dynamicPropsId } : {}) });
        }}
      >
        <div className="field">
          <label htmlFor="source_name">Name</label>
          <input
            id="source_name"
            name="source_name"
            type="text"
            placeholder={component.key ?? component.name}
            aria-describedby="source_name-help"
          />
          <p className="help" id="source_name-help">
            Optional: a name unique in your account.
          </p>
        </div>
      </PropsForm>
    </>
  );
}
