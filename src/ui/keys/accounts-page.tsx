/** Accounts (admins only): create an account; its first API key is shown once. */
import { useMutation } from "@tanstack/react-query";
import type { CreatedAccount } from "../../client/types.js";
import { api } from "../api.js";
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
      <form
        className="inline-form"
        aria-label="New account"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(String(new FormData(event.currentTarget).get("name") ?? "").trim());
        }}
      >
        <div className="field grow">
          <label htmlFor="account-name">Account name</label>
          <input id="account-name" name="name" required />
        </div>
        <button type="submit" disabled={create.isPending}>
          Create account
        </button>
      </form>
      <ActionError error={create.error} />
      {create.data && (
        <SecretNotice secret={create.data.api_key} copyLabel="Copy key">
          Account <strong>{create.data.name}</strong> ({create.data.id}) created. Its API key, shown only now:
        </SecretNotice>
      )}
    </section>
  );
}
