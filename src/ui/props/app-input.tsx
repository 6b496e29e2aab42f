/**
 * An app prop: a picker of the account's connected accounts of that app, and "Connect new",
 * which shows the app's fields (from `GET /v1/apps/{slug}`; free key/value rows for an app
 * nobody registered), creates the connected account and selects it. For an OAuth app it is
 * "Connect with <app>": the provider's authorize page opens in a popup, and the callback page
 * posts `{type: "success", authProvisionId}` back (the attempt is also polled, for providers
 * whose pages cut the popup off from its opener). The configured value is `{authProvisionId}`.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { App } from "../../client/apps-client.js";
import { errorMessage } from "../api.js";
import { appsClient } from "./apps-api.js";
import type { PropInputProps } from "./prop-inputs.js";
import { isAppValue } from "./prop-values.js";

export function AppInput({ prop, id, value, onChange, describedBy, invalid }: PropInputProps) {
  const slug = String(prop.app ?? "");
  const [connecting, setConnecting] = useState(false);
  const accounts = useQuery({
    queryKey: ["connected-accounts", slug],
    queryFn: () => appsClient.listConnectedAccounts({ app: slug, limit: 100 }),
  });
  const chosen = isAppValue(value) ? value.authProvisionId : "";
  const listed = accounts.data?.data ?? [];
  return (
    <div className="app-input">
      <select
        id={id}
        value={chosen}
        onChange={(event) =>
          onChange(event.target.value ? { kind: "app", authProvisionId: event.target.value } : undefined)
        }
        aria-describedby={describedBy}
        aria-invalid={invalid}
        aria-busy={accounts.isFetching}
      >
        <option value="">
          {listed.length === 0 ? `No ${slug} account connected` : "Choose an account…"}
        </option>
        {chosen && !listed.some((account) => account.id === chosen) && (
          <option value={chosen}>{chosen}</option>
        )}
        {listed.map((account) => (
          <option key={account.id} value={account.id}>
            {account.name} ({account.id}){account.healthy ? "" : " — unhealthy"}
          </option>
        ))}
      </select>
      {accounts.error ? (
        <p className="field-error" role="alert">
          Could not list the connected accounts: {errorMessage(accounts.error)}
        </p>
      ) : null}
      {connecting ? (
        <ConnectForm
          slug={slug}
          onDone={(accountId) => {
            setConnecting(false);
            if (accountId) onChange({ kind: "app", authProvisionId: accountId });
          }}
        />
      ) : (
        <button type="button" className="secondary small" onClick={() => setConnecting(true)}>
          Connect new {slug} account
        </button>
      )}
    </div>
  );
}

interface Row {
  key: string;
  value: string;
}

/** Not a <form>: it sits inside the props form, and nested forms are not valid HTML. */
export function ConnectForm({ slug, onDone }: { slug: string; onDone: (accountId?: string) => void }) {
  const queryClient = useQueryClient();
  const app = useQuery({ queryKey: ["app", slug], queryFn: () => appsClient.getApp(slug) });
  const [name, setName] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [rows, setRows] = useState<Row[]>([{ key: "", value: "" }]);
  const create = useMutation({
    mutationFn: (definition: App) => {
      const values =
        definition.fields === null
          ? Object.fromEntries(rows.filter((row) => row.key.trim()).map((row) => [row.key.trim(), row.value]))
          : Object.fromEntries(Object.entries(fields).filter(([, text]) => text !== ""));
      return appsClient.createConnectedAccount({
        app: slug,
        ...(name.trim() ? { name: name.trim() } : {}),
        fields: values,
      });
    },
    onSuccess: (account) => {
      void queryClient.invalidateQueries({ queryKey: ["connected-accounts", slug] });
      onDone(account.id);
    },
  });
  const base = `connect-${slug}`;
  return (
    <fieldset className="connect-account">
      <legend>New {app.data?.name ?? slug} account</legend>
      {app.isPending && <p className="muted">Loading the app…</p>}
      {app.error ? (
        <p className="field-error" role="alert">
          {errorMessage(app.error)}
        </p>
      ) : null}
      {app.data?.auth_type === "oauth" && <OAuthConnect app={app.data} onDone={onDone} />}
      {app.data && app.data.auth_type !== "oauth" && (
        <>
          <label htmlFor={`${base}-name`}>Account name</label>
          <input
            id={`${base}-name`}
            type="text"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          {app.data.fields === null ? (
            <>
              <p className="help">
                {slug} is not a registered app: enter its credentials as keys and values.
              </p>
              {rows.map((row, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
                <div className="key-value" key={index}>
                  <input
                    type="text"
                    aria-label={`Key ${index + 1}`}
                    value={row.key}
                    onChange={(event) =>
                      setRows(
                        rows.map((item, at) => (at === index ? { ...item, key: event.target.value } : item)),
                      )
                    }
                  />
                  <input
                    type="password"
                    autoComplete="off"
                    aria-label={`Value ${index + 1}`}
                    value={row.value}
                    onChange={(event) =>
                      setRows(
                        rows.map((item, at) =>
                          at === index ? { ...item, value: event.target.value } : item,
                        ),
                      )
                    }
                  />
                </div>
              ))}
              <button
                type="button"
                className="secondary small"
                onClick={() => setRows([...rows, { key: "", value: "" }])}
              >
                Add a field
              </button>
            </>
          ) : (
            app.data.fields.map((field) => (
              <div className="field" key={field.name}>
                <label htmlFor={`${base}-${field.name}`}>{field.label ?? field.name}</label>
                {field.optional ? <span className="muted optional">optional</span> : null}
                <input
                  id={`${base}-${field.name}`}
                  type={field.secret ? "password" : "text"}
                  autoComplete="off"
                  value={fields[field.name] ?? ""}
                  onChange={(event) => setFields({ ...fields, [field.name]: event.target.value })}
                />
                {field.description ? <p className="help">{field.description}</p> : null}
              </div>
            ))
          )}
        </>
      )}
      {create.error ? (
        <p className="field-error" role="alert">
          {errorMessage(create.error)}
        </p>
      ) : null}
      {app.data?.auth_type !== "oauth" && (
        <div className="actions">
          <button
            type="button"
            disabled={!app.data || create.isPending}
            onClick={() => app.data && create.mutate(app.data)}
          >
            {create.isPending ? "Connecting…" : "Connect"}
          </button>
          <button type="button" className="secondary" onClick={() => onDone()}>
            Cancel
          </button>
        </div>
      )}
    </fieldset>
  );
}

const POLL_MS = 1500;

/** What the callback page posts to its opener (Pipedream's shape). */
type CallbackMessage =
  | { type: "success"; authProvisionId: string }
  | { type: "error"; error: { code: string; message: string } };

function isCallbackMessage(data: unknown): data is CallbackMessage {
  if (typeof data !== "object" || data === null) return false;
  const message = data as Record<string, unknown>;
  return (
    (message.type === "success" && typeof message.authProvisionId === "string") ||
    (message.type === "error" && typeof message.error === "object" && message.error !== null)
  );
}

/** "Connect with <app>": the popup, the callback's message, and the attempt polled as a fallback. */
function OAuthConnect({ app, onDone }: { app: App; onDone: (accountId?: string) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const popup = useRef<Window | null>(null);
  const base = `connect-${app.name_slug}`;

  const finish = (accountId: string) => {
    setAttempt(null);
    popup.current?.close();
    void queryClient.invalidateQueries({ queryKey: ["connected-accounts", app.name_slug] });
    onDone(accountId);
  };

  const start = useMutation({
    mutationFn: () =>
      appsClient.startOAuthConnection({
        app: app.name_slug,
        ...(name.trim() ? { name: name.trim() } : {}),
        fields: Object.fromEntries(Object.entries(fields).filter(([, text]) => text !== "")),
      }),
    onSuccess: (started) => {
      setAttempt(started.id);
      if (popup.current && !popup.current.closed) popup.current.location.href = started.authorize_url;
      else
        popup.current = window.open(
          started.authorize_url,
          `sluice-oauth-${app.name_slug}`,
          "popup,width=600,height=720",
        );
    },
    onError: () => popup.current?.close(),
  });

  useEffect(() => {
    if (attempt === null) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isCallbackMessage(event.data)) return;
      if (event.data.type === "success") finish(event.data.authProvisionId);
      else {
        setAttempt(null);
        setFailure(event.data.error.message);
      }
    };
    window.addEventListener("message", onMessage);
    const timer = window.setInterval(async () => {
      try {
        const connection = await appsClient.getOAuthConnection(attempt);
        if (connection.status === "connected" && connection.connected_account_id) {
          finish(connection.connected_account_id);
        } else if (connection.status !== "pending") {
          setAttempt(null);
          setFailure(connection.error ?? "The connection link expired: try again.");
        }
      } catch {
        // A failed poll is retried at the next tick; the popup's message may still arrive.
      }
    }, POLL_MS);
    return () => {
      window.removeEventListener("message", onMessage);
      window.clearInterval(timer);
    };
  });

  const connect = () => {
    setFailure(null);
    // Opened now, within the click, so that popup blockers allow it; pointed at the provider once started.
    popup.current = window.open("", `sluice-oauth-${app.name_slug}`, "popup,width=600,height=720");
    start.mutate();
  };

  return (
    <>
      <label htmlFor={`${base}-name`}>Account name</label>
      <input id={`${base}-name`} type="text" value={name} onChange={(event) => setName(event.target.value)} />
      {(app.fields ?? []).map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`${base}-${field.name}`}>{field.label ?? field.name}</label>
          {field.optional ? <span className="muted optional">optional</span> : null}
          <input
            id={`${base}-${field.name}`}
            type={field.secret ? "password" : "text"}
            autoComplete="off"
            value={fields[field.name] ?? ""}
            onChange={(event) => setFields({ ...fields, [field.name]: event.target.value })}
          />
          {field.description ? <p className="help">{field.description}</p> : null}
        </div>
      ))}
      {attempt !== null && (
        <p className="muted" role="status">
          Finish connecting in the {app.name} window…
        </p>
      )}
      {start.error || failure ? (
        <p className="field-error" role="alert">
          {start.error ? errorMessage(start.error) : failure}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" disabled={start.isPending || attempt !== null} onClick={connect}>
          {attempt !== null ? `Waiting for ${app.name}…` : `Connect with ${app.name}`}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            popup.current?.close();
            onDone();
          }}
        >
          Cancel
        </button>
      </div>
    </>
  );
}
