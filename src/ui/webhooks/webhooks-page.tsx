/** Webhooks: the list, and creating one (its signing secret is shown once, with copy). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import type { CreatedWebhook } from "../../client/types.js";
import { api } from "../api.js";
import { InlineForm } from "../components/inline-form.js";
import { PAGE_SIZE, Pager, useCursor } from "../components/pager.js";
import { SecretNotice } from "../components/secret-notice.js";
import { ActionError, Empty, ErrorBox, Loading } from "../components/status.js";

export function WebhooksPage() {
  const queryClient = useQueryClient();
  const [after, setAfter] = useCursor();
  const webhooks = useQuery({
    queryKey: ["webhooks", after],
    queryFn: () => api.listWebhooks({ limit: PAGE_SIZE, ...(after ? { after } : {}) }),
  });
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const create = useMutation({
    mutationFn: (input: { name: string; url: string }) => api.createWebhook(input),
    onSuccess: (webhook) => {
      setCreated(webhook);
      void queryClient.invalidateQueries({ queryKey: ["webhooks"] });
    },
  });
  return (
    <section>
      <h1>Webhooks</h1>
      <InlineForm
        label="New webhook"
        submit="Create webhook"
        busy={create.isPending}
        onSubmit={(data) =>
          create.mutate({ name: String(data.get("name")).trim(), url: String(data.get("url")).trim() })
        }
      >
        <div className="field">
          <label htmlFor="webhook-name">Name</label>
          <input id="webhook-name" name="name" required />
        </div>
        <div className="field grow">
          <label htmlFor="webhook-url">URL</label>
          <input id="webhook-url" name="url" type="url" required placeholder="https://example.com/hooks" />
        </div>
      </InlineForm>
      <ActionError error={create.error} />
      {created && (
        <SecretNotice secret={created.signing_secret} copyLabel="Copy secret">
          Webhook <strong>{created.name}</strong> created. Its signing secret is shown only now:
        </SecretNotice>
      )}
      {webhooks.isPending && <Loading what="webhooks" />}
      {webhooks.error && <ErrorBox error={webhooks.error} />}
      {webhooks.data && webhooks.data.data.length === 0 && <Empty>No webhooks yet.</Empty>}
      {webhooks.data && webhooks.data.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">URL</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.data.map((webhook) => (
                <tr key={webhook.id}>
                  <td>
                    <Link href={`/webhooks/${webhook.id}`}>{webhook.name}</Link>
                  </td>
                  <td className="mono small break">{webhook.url}</td>
                  <td>
                    <span className={webhook.active ? "badge ok" : "badge warn"}>
                      {webhook.active ? "enabled" : "disabled"}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager info={webhooks.data?.page_info} onNext={setAfter} />
    </section>
  );
}
