/**
 * Follows one of the server's SSE streams (`/sse/dc/{id}/emits`, `/observations`) with the
 * browser's EventSource, which sends the session cookie and resumes with Last-Event-ID by itself.
 * `onOpen` runs on each (re)connection, so the caller can re-list what the stream did not carry.
 */
import { useEffect, useRef, useState } from "react";

export type StreamState = "connecting" | "live" | "reconnecting";

export function useLiveStream<T extends { id: string }>(
  path: string | null,
  onItem: (item: T) => void,
  onOpen: () => void,
): StreamState {
  const [state, setState] = useState<StreamState>("connecting");
  const handlers = useRef({ onItem, onOpen });
  handlers.current = { onItem, onOpen };
  useEffect(() => {
    if (path === null) return;
    const source = new EventSource(path);
    source.onopen = () => {
      setState("live");
      handlers.current.onOpen();
    };
    source.onerror = () => setState("reconnecting");
    source.onmessage = (message: MessageEvent<string>) => {
      handlers.current.onItem(JSON.parse(message.data) as T);
    };
    return () => source.close();
  }, [path]);
  return state;
}
