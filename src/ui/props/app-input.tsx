/**
 * An app prop: a picker of the account's connected accounts of that app, and "Connect new",
 * which shows the app's fields (from `GET /v1/apps/{slug}`; free key/value rows for an app
 * nobody registered), creates the connected account and selects it; for an OAuth app, the
 * provider's sign-in in a popup (connect-form.tsx). The configured value is `{authProvisionId}`.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ActionError } from "../components/status.js";
import { appsClient } from "./apps-api.js";
import { ConnectForm } from "./connect-form.js";
import type { PropInputProps } from "./prop-input-props.js";
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
      <ActionError error={accounts.error} prefix="Could not list the connected accounts" />
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
