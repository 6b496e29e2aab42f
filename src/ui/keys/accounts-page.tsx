/** Accounts (admins only): create an account; its first API key is shown once. */
import { useMutation } from "@tanstack/react-query";
import type { CreatedAccount } from "../../client/types.js";
import { api } from "../api.js";
import { NameForm } from "../components/inline-form.js";
import { SecretNotice } from "../components/secret-notice.js";
import { ActionError } from "../components/status.js";

export function AccountsPage() {
  const create = useMutation({
    mutationFn: (name: string): Promise<CreatedAccount> => api.createAccount(name),
  });
  return (
    <section>
      <h1>Accounts</h1>
      <p className="muted">Each account has its own sources, webhooks and workflows; none sees another's.</p>
      <NameForm
        label="New account"
        submit="Create account"
        busy={create.isPending}
        field={{ id: "account-name", label: "Account name", required: true }}
        onName={(name) => create.mutate(name)}
      />
      <ActionError error={create.error} />
      {create.data && (
        <SecretNotice secret={create.data.api_key} copyLabel="Copy key">
          Account <strong>{create.data.name}</strong> ({create.data.id}) created. Its API key, shown only now:
        </SecretNotice>
      )}
    </section>
  );
}
