/**
 * Connecting an account of an app, or reconnecting one: the app's fields (from
 * `GET /v1/apps/{slug}`; free key/value rows for an app nobody registered), or for an OAuth app
 * its provider's sign-in in a popup (oauth-connect.tsx). Reconnecting keeps the `apn_` id: a
 * keys account's fields are replaced (`PATCH /v1/connected_accounts/{id}`), an OAuth account
 * gets fresh tokens from its flow run again with `connected_account_id`.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { App, ConnectedAccount } from "../../client/apps-client.js";
import { ActionError } from "../components/status.js";
import { AccountNameInput, AppFieldInputs, filledValues } from "./app-fields.js";
import { appsClient } from "./apps-api.js";
import { OAuthConnect } from "./oauth-connect.js";

interface Row {
  key: string;
  value: string;
}

/**
 * Not a <form>: it sits inside the props form, and nested forms are not valid HTML.
 * `reconnect`: the connected account to give new credentials, instead of creating one.
 */
export function ConnectForm({
  slug,
  reconnect,
  onDone,
}: {
  slug: string;
  reconnect?: ConnectedAccount;
  onDone: (accountId?: string) => void;
}) {
  const queryClient = useQueryClient();
  const app = useQuery({ queryKey: ["app", slug], queryFn: () => appsClient.getApp(slug) });
  const [name, setName] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [rows, setRows] = useState<Row[]>([{ key: "", value: "" }]);
  const save = useMutation({
    mutationFn: (definition: App) => {
      const values =
        definition.fields === null
          ? Object.fromEntries(rows.filter((row) => row.key.trim()).map((row) => [row.key.trim(), row.value]))
          : filledValues(fields);
      if (reconnect) return appsClient.updateConnectedAccount(reconnect.id, { fields: values });
      return appsClient.createConnectedAccount({
        app: slug,
        ...(name.trim() ? { name: name.trim() } : {}),
        fields: values,
      });
    },
    onSuccess: (account) => {
      void queryClient.invalidateQueries({ queryKey: ["connected-accounts"] });
      onDone(account.id);
    },
  });
  const base = reconnect ? `reconnect-${reconnect.id}` : `connect-${slug}`;
  const action = reconnect ? "Reconnect" : "Connect";
  return (
    <fieldset className="connect-account">
      <legend>{reconnect ? `Reconnect ${reconnect.name}` : `New ${app.data?.name ?? slug} account`}</legend>
      {app.isPending && <p className="muted">Loading the app…</p>}
      <ActionError error={app.error} />
      {app.data?.auth_type === "oauth" && (
        <OAuthConnect app={app.data} base={base} reconnect={reconnect} onDone={onDone} />
      )}
      {app.data && app.data.auth_type !== "oauth" && (
        <>
          <AccountNameInput
            base={base}
            name={name}
            onChange={setName}
            reconnectHelp={
              reconnect
                ? "Enter every field again: they replace the stored ones, which are never shown."
                : null
            }
          />
          {app.data.fields === null ? (
            <KeyValueRows slug={slug} rows={rows} onChange={setRows} />
          ) : (
            <AppFieldInputs fields={app.data.fields} values={fields} onChange={setFields} base={base} />
          )}
        </>
      )}
      <ActionError error={save.error} />
      {app.data?.auth_type !== "oauth" && (
        <div className="actions">
          <button
            type="button"
            disabled={!app.data || save.isPending}
            onClick={() => app.data && save.mutate(app.data)}
          >
            {save.isPending ? `${action}ing…` : action}
          </button>
          <button type="button" className="secondary" onClick={() => onDone()}>
            Cancel
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** Credentials of an app nobody registered: free key and value rows. */
function KeyValueRows({
  slug,
  rows,
  onChange,
}: {
  slug: string;
  rows: Row[];
  onChange: (rows: Row[]) => void;
}) {
  return (
    <>
      <p className="help">{slug} is not a registered app: enter its credentials as keys and values.</p>
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
        <div className="key-value" key={index}>
          <input
            type="text"
            aria-label={`Key ${index + 1}`}
            value={row.key}
            onChange={(event) =>
              onChange(rows.map((item, at) => (at === index ? { ...item, key: event.target.value } : item)))
            }
          />
          <input
            type="password"
            autoComplete="off"
            aria-label={`Value ${index + 1}`}
            value={row.value}
            onChange={(event) =>
              onChange(rows.map((item, at) => (at === index ? { ...item, value: event.target.value } : item)))
            }
          />
        </div>
      ))}
      <button
        type="button"
        className="secondary small"
        onClick={() => onChange([...rows, { key: "", value: "" }])}
      >
        Add a field
      </button>
    </>
  );
}
