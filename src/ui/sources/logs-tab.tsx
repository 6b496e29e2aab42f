/** Logs: the source's invocation log lines, newest first, with new ones live over SSE. */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { LogEntry } from "../../client/types.js";
import { api } from "../api.js";
import { useLiveStream } from "../components/live-stream.js";
import { Empty, ErrorBox, Loading } from "../components/status.js";
import { formatMs } from "../components/time.js";

export function LogsTab({ sourceId }: { sourceId: string }) {
  const listing = useQuery({
    queryKey: ["logs", sourceId],
    queryFn: () => api.listLogs(sourceId, { limit: 100 }),
  });
  const [live, setLive] = useState<LogEntry[]>([]);
  const onItem = useCallback((item: LogEntry) => setLive((current) => [item, ...current].slice(0, 500)), []);
  const refetch = listing.refetch;
  useLiveStream<LogEntry>(
    `/sse/dc/${encodeURIComponent(sourceId)}/observations`,
    onItem,
    () => void refetch(),
  );
  const seen = new Set<string>();
  const lines = [...live, ...(listing.data?.data ?? [])].filter(
    (line) => !seen.has(line.id) && seen.add(line.id),
  );
  if (listing.isPending) return <Loading what="logs" />;
  if (listing.error) return <ErrorBox error={listing.error} />;
  if (lines.length === 0) return <Empty>No log lines yet.</Empty>;
  return (
    <ol className="logs" aria-label="Log lines">
      {lines.map((line) => (
        <li key={line.id} className={`log-${line.level}`}>
          <span className="small mono muted">{formatMs(line.ts)}</span>{" "}
          <span className="mono">{line.level}</span> {line.message}
        </li>
      ))}
    </ol>
  );
}
