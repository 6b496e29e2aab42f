/** Subscriptions: the webhooks this source's events go to; subscribe another, or unsubscribe. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import { api } from "../api.js";
import { Empty, ErrorBox, Loading } from "../components/status.js";

export function SubscriptionsTab({ sourceId }: { sourceId: string }) {
  const queryClient = useQueryClient();
  // The account's subscriptions, filtered to this emitter (the API lists them per account).
  const subscriptions = useQuery({
    queryKey: ["subscriptions"],
    queryFn: () => api.listSubscriptions({ limit: 100 }),
  });
  const webhooks = useQuery({ queryKey: ["webhooks", ""], queryFn: () => api.listWebhooks({ limit: 100 }) });
  const change = useMutation({
    mutationFn: (input: { subscribe: boolean; listener: string }) =>
      input.subscribe
        ? api.subscribe({ emitter_id: sourceId, listener_id: input.listener })
        : api.unsubscribe({ emitter_id: sourceId, listener_id: input.listener }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["subscriptions"] }),
  });
  if (subscriptions.isPending) return <Loading what="subscriptions" />;
  if (subscriptions.error) return <ErrorBox error={subscriptions.error} />;
  const mine = subscriptions.data.data.filter((subscription) => subscription.emitter_id === sourceId);
  const names = new Map((webhooks.data?.data ?? []).map((webhook) => [webhook.id, webhook.name]));
  const available = (webhooks.data?.data ?? []).filter(
    (webhook) => !mine.some((subscription) => subscription.listener_id === webhook.id),
  );
  return (
    <div>
      {mine.length === 0 ? (
        <Empty>No webhook receives this source's events.</Empty>
      ) : (
        <ul className="plain">
          {mine.map((subscription) => (
            <li key={subscription.id} className="row">
              <Link href={`/webhooks/${subscription.listener_id}`}>
                {names.get(subscription.listener_id) ?? subscription.listener_id}
              </Link>
              <span className="muted">{subscription.event_name ?? "every channel"}</span>
              <button
                type="button"
                className="secondary small"
                onClick={() => change.mutate({ subscribe: false, listener: subscription.listener_id })}
              >
                Unsubscribe
              </button>
            </li>
          ))}
        </ul>
      )}
      {available.length > 0 && (
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            const listener = String(new FormData(event.currentTarget).get("listener") ?? "");
            if (listener) change.mutate({ subscribe: true, listener });
          }}
        >
          <label htmlFor="listener">Send events to</label>
          <select id="listener" name="listener">
            {available.map((webhook) => (
              <option key={webhook.id} value={webhook.id}>
                {webhook.name}
              </option>
            ))}
          </select>
          <button type="submit">Subscribe</button>
        </form>
      )}
      {change.error && <ErrorBox error={change.error} />}
    </div>
  );
}
