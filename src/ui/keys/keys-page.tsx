/** API keys: create one (shown once), list and revoke. Revoking a key ends its UI sessions too. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ApiKeyInfo, CreatedApiKey } from "../../client/types.js";
import { api } from "../api.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { type Column, DataTable } from "../components/data-table.js";
import { NameForm } from "../components/inline-form.js";
import { SecretNotice } from "../components/secret-notice.js";
import { ActionError } from "../components/status.js";
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
  const columns: Column<ApiKeyInfo>[] = [
    { header: "Name", cell: (key) => key.name ?? <span className="muted">unnamed</span> },
    { header: "Prefix", className: "mono", cell: (key) => `${key.prefix}…` },
    { header: "Created", cell: (key) => formatSeconds(key.created_at) },
    { header: "Last used", cell: (key) => formatSeconds(key.last_used_at) },
    {
      header: "Actions",
      hideHeader: true,
      cell: (key) => (
        <ConfirmButton
          label="Revoke"
          question={`Revoke the key ${key.prefix}…? Anything using it stops working.`}
          onConfirm={() => revoke.mutate(key.id)}
        />
      ),
    },
  ];
  return (
    <section>
      <h1>API keys</h1>
      <NameForm
        label="New API key"
        submit="Create key"
        busy={create.isPending}
        field={{ id: "key-name", label: "Name", placeholder: "ci, laptop…" }}
        onName={(name) => create.mutate(name)}
      />
      {created && (
        <SecretNotice secret={created.api_key} copyLabel="Copy key">
          The new key, shown only now:
        </SecretNotice>
      )}
      <ActionError error={create.error ?? revoke.error} />
      <DataTable
        query={keys}
        rows={keys.data}
        what="keys"
        empty="No keys."
        columns={columns}
        rowKey={(key) => key.id}
        cards
      />
    </section>
  );
}
