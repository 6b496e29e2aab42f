/** API keys: create one (shown once), list and revoke. Revoking a key ends its UI sessions too. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CreatedApiKey } from "../../client/types.js";
import { api, errorMessage } from "../api.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { CopyButton } from "../components/copy-button.js";
import { Empty, ErrorBox, Loading } from "../components/status.js";
import { formatSeconds } from "../components/time.js";

export function KeysPage() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ["keys"], queryFn: () => api.listApiKeys() });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useMutation({
    mutationFn: (name: string) => api.createApiKey(name || undefined),
    onSuccess: (key) => {
      setCreated(key);
      void queryClient.invalidateQueries({ queryKey: ["keys"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api.revokeApiKey(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["keys"] }),
  });
  return (
    <section>
      <h1>API keys</h1>
      <form
        className="inline-form"
        aria-label="New API key"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(String(new FormData(event.currentTarget).get("name") ?? "").trim());
        }}
      >
        <div className="field grow">
          <label htmlFor="key-name">Name</label>
          <input id="key-name" name="name" placeholder="ci, laptop…" />
        </div>
        <button type="submit" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {created && (
        <div className="notice ok" role="status">
          <p>The new key, shown only now:</p>
          <p className="row">
            <code className="secret">{created.api_key}</code>
            <CopyButton text={created.api_key} label="Copy key" />
          </p>
        </div>
      )}
      {(create.error ?? revoke.error) && (
        <p className="field-error" role="alert">
          {errorMessage(create.error ?? revoke.error)}
        </p>
      )}
      {keys.isPending && <Loading what="keys" />}
      {keys.error && <ErrorBox error={keys.error} />}
      {keys.data && keys.data.length === 0 && <Empty>No keys.</Empty>}
      {keys.data && keys.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td>{key.name ?? <span className="muted">unnamed</span>}</td>
                  <td className="mono">{key.prefix}…</td>
                  <td>{formatSeconds(key.created_at)}</td>
                  <td>{formatSeconds(key.last_used_at)}</td>
                  <td>
                    <ConfirmButton
                      label="Revoke"
                      question={`Revoke the key ${key.prefix}…? Anything using it stops working.`}
                      onConfirm={() => revoke.mutate(key.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
