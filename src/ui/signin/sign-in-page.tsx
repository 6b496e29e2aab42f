/** Sign in with an API key. The server answers with an httpOnly session cookie; the key is dropped. */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { errorMessage } from "../api.js";
import { signIn } from "../components/session.js";

/** Only a path on this site may be the page to come back to. */
function safeNext(next: string | null): string {
  return next?.startsWith("/") && !next.startsWith("//") ? next : "/sources";
}

export function SignInPage() {
  const [, navigate] = useLocation();
  const next = safeNext(new URLSearchParams(useSearch()).get("next"));
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main className="signin">
      <h1>Sign in to Sluice</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const key = String(new FormData(form).get("api_key") ?? "").trim();
          if (key === "") {
            setError("Enter an API key");
            return;
          }
          setBusy(true);
          setError(null);
          try {
            const me = await signIn(key);
            form.reset();
            queryClient.setQueryData(["me"], me);
            navigate(next, { replace: true });
          } catch (failure) {
            setError(errorMessage(failure));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label htmlFor="api_key">API key</label>
        <input
          id="api_key"
          name="api_key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error !== null}
          aria-describedby={error ? "api_key-error" : "api_key-help"}
        />
        {error ? (
          <p id="api_key-error" className="field-error" role="alert">
            {error}
          </p>
        ) : (
          <p id="api_key-help" className="help">
            The key the server printed on first start, or one from <code>sluice keys create</code>. It is
            exchanged for a session cookie and not stored in the browser.
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
