/** Events: the most recent 100, then new ones as they arrive over SSE; inspect, copy, search. */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { EventSummary } from "../../client/types.js";
import { api } from "../api.js";
import { CopyButton } from "../components/copy-button.js";
import { JsonTree } from "../components/json-tree.js";
import { useLiveStream } from "../components/live-stream.js";
import { PickList } from "../components/pick-list.js";
import { SearchBox } from "../components/search-box.js";
import { Empty, ErrorBox, Loading } from "../components/status.js";
import { formatMs } from "../components/time.js";
import { useUrlParam } from "../components/url-state.js";

const SHOWN = 100;

export function EventsTab({ sourceId }: { sourceId: string }) {
  const listing = useQuery({
    queryKey: ["events", sourceId],
    queryFn: () => api.listEvents(sourceId, { limit: SHOWN, expand: "event" }),
  });
  const [live, setLive] = useState<EventSummary[]>([]);
  const onItem = useCallback(
    (item: EventSummary) => setLive((current) => [item, ...current].slice(0, SHOWN)),
    [],
  );
  const refetch = listing.refetch;
  const state = useLiveStream<EventSummary>(
    `/sse/dc/${encodeURIComponent(sourceId)}/emits`,
    onItem,
    () => void refetch(),
  );
  const [query] = useUrlParam("q");
  const [selected, setSelected] = useUrlParam("event");

  const seen = new Set<string>();
  const events = [...live, ...(listing.data?.data ?? [])]
    .filter((item) => !seen.has(item.id) && seen.add(item.id))
    .slice(0, SHOWN);
  const needle = query.trim().toLowerCase();
  const shown =
    needle === "" ? events : events.filter((item) => JSON.stringify(item).toLowerCase().includes(needle));
  const current = shown.find((item) => item.id === selected) ?? shown[0];

  return (
    <div>
      <div className="row">
        <SearchBox label="Search events" />
        <span className={state === "live" ? "badge ok" : "badge"} role="status">
          {state === "live" ? "Live" : state === "connecting" ? "Connecting…" : "Reconnecting…"}
        </span>
      </div>
      {listing.isPending && <Loading what="events" />}
      {listing.error && <ErrorBox error={listing.error} />}
      {listing.data && shown.length === 0 && (
        <Empty>
          {needle ? "No event matches the search." : "No events yet. They appear here as they arrive."}
        </Empty>
      )}
      {shown.length > 0 && (
        <div className="split">
          <PickList label="Events" items={shown} current={current?.id} onPick={setSelected}>
            {(item) => (
              <>
                <span className="small mono">{formatMs(item.indexed_at_ms)}</span>
                <span className="summary">{item.metadata.summary ?? item.metadata.name}</span>
              </>
            )}
          </PickList>
          {current && (
            <article className="inspector" aria-label="Event">
              <div className="row">
                <h2 className="mono small">{current.id}</h2>
                <CopyButton text={JSON.stringify(current.event, null, 2)} label="Copy JSON" />
              </div>
              {current.event_truncated && (
                <p className="notice">This event is large; the listing shows it truncated.</p>
              )}
              <JsonTree value={current.event} label="Event payload" />
              <details>
                <summary>Metadata</summary>
                <JsonTree value={current.metadata} label="Event metadata" />
              </details>
            </article>
          )}
        </div>
      )}
    </div>
  );
}
