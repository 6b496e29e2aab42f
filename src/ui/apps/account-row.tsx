/**
 * One connected account in the list: its name (renamed in place), app, health and last error,
 * Reconnect (its fields entered again, or its OAuth flow run again: the same `apn_` id, healthy
 * again), and Delete. An account a source or workflow uses is refused (409
 * connected_account_in_use): the row says which use it and offers to delete it anyway.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ConnectedAccount } from "../../client/apps-client.js";
import { ApiError, errorMessage } from "../api.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { formatMs } from "../components/time.js";
import { appsClient } from "../props/apps-api.js";
import { ConnectForm } from "../props/connect-form.js";

/** The API's `dead` (Pipedream's field) is simply `!healthy`: an account is one or the other here. */
function health(account: ConnectedAccount): string {
  return account.healthy ? "healthy" : "unhealthy";
}

export function AccountRow({ account }: { account: ConnectedAccount }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [reconnecting, setReconnecting] = useState(false);
  const [reconnected, setReconnected] = useState(false);
  const [name, setName] = useState(account.name);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["connected-accounts"] });
  const rename = useMutation({
    mutationFn: () => appsClient.renameConnectedAccount(account.id, name.trim()),
    onSuccess: async () => {
      setRenaming(false);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (force: boolean) => appsClient.deleteConnectedAccount(account.id, force),
    onSuccess: refresh,
  });
  const inUse = remove.error instanceof ApiError && remove.error.status === 409;
  const failure = rename.error ?? remove.error;
  const state = health(account);
  return (
    <>
      <tr>
        <td data-label="Name">
          {renaming ? (
            <RenameForm
              account={account}
              name={name}
              onName={setName}
              saving={rename.isPending}
              onSave={() => rename.mutate()}
              onCancel={() => setRenaming(false)}
            />
          ) : (
            <>
              {account.name}
              <br />
              <span className="mono small muted">{account.id}</span>
            </>
          )}
        </td>
        <td className="mono" data-label="App">
          {account.app}
        </td>
        <td data-label="Health">
          <span className={`badge ${state === "healthy" ? "ok" : "bad"}`}>{state}</span>
        </td>
        <td data-label="Error">{account.error ?? <span className="muted">—</span>}</td>
        <td data-label="Created">{formatMs(Date.parse(account.created_at))}</td>
        <td>
          <div className="row">
            {!reconnecting && (
              <button
                type="button"
                className="secondary small"
                aria-label={`Reconnect ${account.name}`}
                onClick={() => {
                  setReconnected(false);
                  setReconnecting(true);
                }}
              >
                Reconnect
              </button>
            )}
            {!renaming && (
              <button
                type="button"
                className="secondary small"
                aria-label={`Rename ${account.name}`}
                onClick={() => {
                  setName(account.name);
                  setRenaming(true);
                }}
              >
                Rename
              </button>
            )}
            <ConfirmButton
              label="Delete"
              question={`Delete the connected account ${account.name} (${account.id})?`}
              disabled={remove.isPending}
              onConfirm={() => remove.mutate(false)}
            />
          </div>
          {failure ? (
            <RowFailure
              account={account}
              failure={failure}
              inUse={inUse}
              onForce={() => remove.mutate(true)}
            />
          ) : null}
          {reconnected && (
            <p className="small" role="status">
              Reconnected.
            </p>
          )}
        </td>
      </tr>
      {reconnecting && (
        <tr>
          <td colSpan={6}>
            <ConnectForm
              slug={account.app}
              reconnect={account}
              onDone={(accountId) => {
                setReconnecting(false);
                if (accountId) setReconnected(true);
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}

function RenameForm({
  account,
  name,
  onName,
  saving,
  onSave,
  onCancel,
}: {
  account: ConnectedAccount;
  name: string;
  onName: (name: string) => void;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="row"
      aria-label={`Rename ${account.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) onSave();
      }}
    >
      <input
        aria-label={`New name for ${account.name}`}
        value={name}
        onChange={(event) => onName(event.target.value)}
      />
      <button type="submit" className="small" disabled={saving}>
        Save
      </button>
      <button type="button" className="secondary small" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** Why renaming or deleting failed; an account in use (409) may be deleted anyway. */
function RowFailure({
  account,
  failure,
  inUse,
  onForce,
}: {
  account: ConnectedAccount;
  failure: Error;
  inUse: boolean;
  onForce: () => void;
}) {
  return (
    <div className="field-error" role="alert">
      <p>
        {inUse ? "In use, not deleted: " : ""}
        {errorMessage(failure)}
      </p>
      {inUse && (
        <ConfirmButton
          label="Delete anyway"
          question={`Delete ${account.name} although it is in use? What uses it fails until its app prop is changed.`}
          onConfirm={onForce}
        />
      )}
    </div>
  );
}
