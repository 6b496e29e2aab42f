/** A source's stored events over REST, every page, as the payloads the emitter source emits. */
import type { SluiceClient } from "../../src/client/client.js";
import type { EmittedPayload } from "./webhook-delivery.js";

export interface StoredEvent {
  /** The event's id (`<ms>-<seq>`). */
  id: string;
  payload: EmittedPayload;
}

export async function storedEvents(client: SluiceClient, sourceId: string): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.listEvents(sourceId, {
      limit: 100,
      expand: "event",
      ...(after === undefined ? {} : { after }),
    });
    for (const summary of page.data)
      events.push({ id: summary.id, payload: summary.event as EmittedPayload });
    if (page.data.length < 100 || page.page_info.end_cursor === null) return events;
    after = page.page_info.end_cursor;
  }
}
