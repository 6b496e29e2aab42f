/**
 * An OAuth app's connection in a popup: the provider's authorize page opens there, and the
 * callback page posts `{type: "success", authProvisionId}` back (the attempt is also polled, for
 * providers whose pages cut the popup off from its opener).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { App, ConnectedAccount } from "../../client/apps-client.js";
import { errorMessage } from "../api.js";
import { AccountNameInput, AppFieldInputs, filledValues } from "./app-fields.js";
import { appsClient } from "./apps-api.js";

const POLL_MS = 1500;

/** What the callback page posts to its opener (Pipedream's shape). */
type CallbackMessage =
  | { type: "success"; authProvisionId: string }
  | { type: "error"; error: { code: string; message: string } };

function isCallbackMessage(data: unknown): data is CallbackMessage {
  if (typeof data !== "object" || data === null) return false;
  const message = data as Record<string, unknown>;
  return (
    (message.type === "success" && typeof message.authProvisionId === "string") ||
    (message.type === "error" && typeof message.error === "object" && message.error !== null)
  );
}

/**
 * "Connect with <app>": the popup, the callback's message, and the attempt polled as a fallback.
 * With `reconnect`, the same flow gives that connected account fresh tokens (same `apn_` id).
 */
export function OAuthConnect({
  app,
  base,
  reconnect,
  onDone,
}: {
  app: App;
  base: string;
  reconnect?: ConnectedAccount | undefined;
  onDone: (accountId?: string) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const popup = useRef<Window | null>(null);

  const finish = (accountId: string) => {
    setAttempt(null);
    popup.current?.close();
    void queryClient.invalidateQueries({ queryKey: ["connected-accounts"] });
    onDone(accountId);
  };

  const start = useMutation({
    mutationFn: () =>
      appsClient.startOAuthConnection({
        app: app.name_slug,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(reconnect ? { connected_account_id: reconnect.id } : {}),
        fields: filledValues(fields),
      }),
    onSuccess: (started) => {
      setAttempt(started.id);
      if (popup.current && !popup.current.closed) popup.current.location.href = started.authorize_url;
      else
        popup.current = window.open(
          started.authorize_url,
          `sluice-oauth-${app.name_slug}`,
          "popup,width=600,height=720",
        );
    },
    onError: () => popup.current?.close(),
  });

  useAttemptOutcome(attempt, finish, (message) => {
    setAttempt(null);
    setFailure(message);
  });

  const connect = () => {
    setFailure(null);
    // Opened now, within the click, so that popup blockers allow it; pointed at the provider once started.
    popup.current = window.open("", `sluice-oauth-${app.name_slug}`, "popup,width=600,height=720");
    start.mutate();
  };

  return (
    <>
      <AccountNameInput
        base={base}
        name={name}
        onChange={setName}
        reconnectHelp={
          reconnect ? `Sign in to ${app.name} again: ${reconnect.id} gets new tokens and keeps its id.` : null
        }
      />
      <AppFieldInputs fields={app.fields ?? []} values={fields} onChange={setFields} base={base} />
      {attempt !== null && (
        <p className="muted" role="status">
          Finish connecting in the {app.name} window…
        </p>
      )}
      {start.error || failure ? (
        <p className="field-error" role="alert">
          {start.error ? errorMessage(start.error) : failure}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" disabled={start.isPending || attempt !== null} onClick={connect}>
          {attempt !== null
            ? `Waiting for ${app.name}…`
            : `${reconnect ? "Reconnect" : "Connect"} with ${app.name}`}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            popup.current?.close();
            onDone();
          }}
        >
          Cancel
        </button>
      </div>
    </>
  );
}

/** Waits for the attempt's outcome: the callback page's message, or the attempt polled. */
function useAttemptOutcome(
  attempt: string | null,
  onConnected: (accountId: string) => void,
  onFailed: (message: string) => void,
) {
  useEffect(() => {
    if (attempt === null) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isCallbackMessage(event.data)) return;
      if (event.data.type === "success") onConnected(event.data.authProvisionId);
      else onFailed(event.data.error.message);
    };
    window.addEventListener("message", onMessage);
    const timer = window.setInterval(async () => {
      try {
        const connection = await appsClient.getOAuthConnection(attempt);
        if (connection.status === "connected" && connection.connected_account_id) {
          onConnected(connection.connected_account_id);
        } else if (connection.status !== "pending") {
          onFailed(connection.error ?? "The connection link expired: try again.");
        }
      } catch {
        // A failed poll is retried at the next tick; the popup's message may still arrive.
      }
    }, POLL_MS);
    return () => {
      window.removeEventListener("message", onMessage);
      window.clearInterval(timer);
    };
  });
}
