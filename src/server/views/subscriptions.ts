/** The REST API's shapes of subscriptions (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { Subscription } from "../../core/fan-out/subscriptions.js";

export function subscriptionView(subscription: Subscription) {
  return {
    id: subscription.id,
    emitter_id: subscription.emitterId,
    listener_id: subscription.listenerId,
    event_name: subscription.eventName,
    created_at: Math.floor(subscription.createdAt / 1000),
  };
}
