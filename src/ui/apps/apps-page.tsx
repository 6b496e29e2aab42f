/**
 * Apps and connected accounts: the account's connected accounts with their app, health and
 * error; connect a new one (the app's keys form, or its OAuth flow in a popup: the same form as
 * an app prop's "Connect new"); reconnect, rename and delete. The list is paged on the server; the
 * app filter and the page's cursor are in the URL (`?app=`, `?after=`).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ConnectedAccount } from "../../client/apps-client.js";
import { type Column, DataTable } from "../components/data-table.js";
import { PAGE_SIZE, useCursor } from "../components/pager.js";
import { useUrlParam } from "../components/url-state.js";
import { appsClient } from "../props/apps-api.js";
import { ConnectForm } from "../props/connect-form.js";
import { AccountRow } from "./account-row.js";

/** The table's headers; each row is an AccountRow (its cells, and its reconnect form). */
const ACCOUNT_COLUMNS: Column<ConnectedAccount>[] = [
  { header: "Name" },
  { header: "App" },
  { header: "Health" },
  { header: "Error" },
  { header: "Created" },
  { header: "Actions", hideHeader: true },
];

export function AppsPage() {
  const [app, setApp] = useUrlParam("app");
  const [after, setAfter] = useCursor();
  const queryClient = useQueryClient();
  const apps = useQuery({ queryKey: ["apps"], queryFn: () => appsClient.listApps() });
  const accounts = useQuery({
    queryKey: ["connected-accounts", "page", app, after],
    queryFn: () =>
      appsClient.listConnectedAccounts({
        limit: PAGE_SIZE,
        ...(app ? { app } : {}),
        ...(after ? { after } : {}),
      }),
    placeholderData: (previous) => previous,
  });
  const [slug, setSlug] = useState("");
  const [connecting, setConnecting] = useState<string | null>(null);
  const [connected, setConnected] = useState<string | null>(null);
  const registered = apps.data ?? [];
  return (
    <section>
      <h1>Apps and connected accounts</h1>
      <h2>Connect an account</h2>
      {connecting ? (
        <ConnectForm
          slug={connecting}
          onDone={(accountId) => {
            setConnecting(null);
            void queryClient.invalidateQueries({ queryKey: ["connected-accounts"] });
            if (accountId) setConnected(accountId);
          }}
        />
      ) : (
        <form
          className="inline-form"
          aria-label="Connect an account"
          onSubmit={(event) => {
            event.preventDefault();
            if (slug.trim()) {
              setConnected(null);
              setConnecting(slug.trim());
            }
          }}
        >
          <div className="field grow">
            <label htmlFor="connect-app">App</label>
            <input
              id="connect-app"
              list="registered-apps"
              value={slug}
              placeholder="github, my-api…"
              onChange={(event) => setSlug(event.target.value)}
              aria-describedby="connect-app-help"
            />
            <datalist id="registered-apps">
              {registered.map((item) => (
                <option key={item.name_slug} value={item.name_slug}>
                  {item.name}
                </option>
              ))}
            </datalist>
            <p className="help" id="connect-app-help">
              A registered app shows its fields (or signs in with OAuth); any other name takes keys and
              values.
            </p>
          </div>
          <button type="submit" disabled={slug.trim() === ""}>
            Continue
          </button>
        </form>
      )}
      {connected && (
        <p className="notice ok" role="status">
          Connected: {connected}.
        </p>
      )}

      <h2>Connected accounts</h2>
      <div className="row wrap">
        <label htmlFor="filter-app">App</label>
        <select
          id="filter-app"
          value={app}
          onChange={(event) => {
            // Another filter starts again from the first page.
            setApp(event.target.value);
            setAfter("");
          }}
        >
          <option value="">All apps</option>
          {registered.map((item) => (
            <option key={item.name_slug} value={item.name_slug}>
              {item.name} ({item.name_slug})
            </option>
          ))}
          {app && !registered.some((item) => item.name_slug === app) && <option value={app}>{app}</option>}
        </select>
      </div>
      <DataTable
        query={accounts}
        rows={accounts.data?.data}
        what="connected accounts"
        empty={app ? `No ${app} account connected.` : "No connected account yet."}
        columns={ACCOUNT_COLUMNS}
        rowKey={(account) => account.id}
        renderRow={(account) => <AccountRow account={account} />}
        label="Connected accounts"
        cards
        pageInfo={accounts.data?.page_info}
        onNext={setAfter}
      />
    </section>
  );
}
