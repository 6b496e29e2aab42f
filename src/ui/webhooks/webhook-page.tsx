/** A webhook: settings (enable, rate limit, rotate the secret), its delivery log, resend and recover. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../api.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { PageHead } from "../components/page-head.js";
import { SecretNotice } from "../components/secret-notice.js";
import { ActionError, ErrorBox, Loading, Notice } from "../components/status.js";
import { useDeleteAndLeave } from "../components/use-delete-and-leave.js";
import { DeliveryLog } from "./delivery-log.js";

export function WebhookPage({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const webhook = useQuery({ queryKey: ["webhook", id], queryFn: () => api.getWebhook(id) });
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: (changes: { active?: boolean; rate_limit?: number | null }) => api.updateWebhook(id, changes),
    onSuccess: (updated) => queryClient.setQueryData(["webhook", id], updated),
  });
  const rotate = useMutation({
    mutationFn: () => api.rotateWebhookSecret(id),
    onSuccess: (rotated) => setSecret(rotated.signing_secret),
  });
  const recover = useMutation({
    mutationFn: (since: string) => api.recoverWebhook(id, since),
    onSuccess: (result) => {
      setNotice(`${result.resent} failed deliver${result.resent === 1 ? "y" : "ies"} queued again`);
      void queryClient.invalidateQueries({ queryKey: ["deliveries", id] });
    },
  });
  const remove = useDeleteAndLeave(() => api.deleteWebhook(id), "webhooks", "/webhooks");
  if (webhook.isPending) return <Loading what="the webhook" />;
  if (webhook.error) return <ErrorBox error={webhook.error} />;
  const data = webhook.data;
  const failure = update.error ?? rotate.error ?? recover.error ?? remove.error;
  return (
    <section>
      <PageHead
        title={data.name}
        actions={
          <>
            <button
              type="button"
              className="secondary"
              onClick={() => update.mutate({ active: !data.active })}
            >
              {data.active ? "Disable" : "Enable"}
            </button>
            <button type="button" className="secondary" onClick={() => rotate.mutate()}>
              Rotate secret
            </button>
            <ConfirmButton
              label="Delete"
              question={`Delete the webhook ${data.name}?`}
              onConfirm={() => remove.mutate()}
            />
          </>
        }
      >
        <p className="muted mono small break">
          {data.id} · {data.url}
        </p>
        <p>
          <span className={data.active ? "badge ok" : "badge warn"}>
            {data.active ? "enabled" : "disabled"}
          </span>
          {data.disabled_reason && <span className="muted"> {data.disabled_reason}</span>}
        </p>
      </PageHead>
      {secret && (
        <SecretNotice secret={secret} copyLabel="Copy secret">
          New signing secret (shown once; the old one stays valid for 24 hours):
        </SecretNotice>
      )}
      <Notice text={notice} />
      <ActionError error={failure} />
      <div className="row wrap webhook-settings">
        <RateLimitForm
          rateLimit={data.rate_limit}
          onSave={(rateLimit) => update.mutate({ rate_limit: rateLimit })}
        />
        <RecoverForm onRecover={(since) => recover.mutate(since)} />
      </div>
      <h2>Deliveries</h2>
      <DeliveryLog webhookId={id} />
    </section>
  );
}

/** The webhook's rate limit in deliveries per second; empty for none. */
function RateLimitForm({
  rateLimit,
  onSave,
}: {
  rateLimit: number | null;
  onSave: (rateLimit: number | null) => void;
}) {
  return (
    <form
      className="row"
      onSubmit={(event) => {
        event.preventDefault();
        const text = String(new FormData(event.currentTarget).get("rate_limit") ?? "").trim();
        onSave(text === "" ? null : Number(text));
      }}
    >
      <label htmlFor="rate_limit">Rate limit (per second)</label>
      <input
        id="rate_limit"
        name="rate_limit"
        type="number"
        min={1}
        defaultValue={rateLimit ?? ""}
        placeholder="none"
        className="narrow"
      />
      <button type="submit" className="secondary">
        Save
      </button>
    </form>
  );
}

/** Queues again the deliveries that failed since a moment. */
function RecoverForm({ onRecover }: { onRecover: (since: string) => void }) {
  return (
    <form
      className="row"
      onSubmit={(event) => {
        event.preventDefault();
        const since = String(new FormData(event.currentTarget).get("since") ?? "");
        if (since) onRecover(new Date(since).toISOString());
      }}
    >
      <label htmlFor="since">Resend failed since</label>
      <input id="since" name="since" type="datetime-local" required />
      <button type="submit" className="secondary">
        Recover
      </button>
    </form>
  );
}
