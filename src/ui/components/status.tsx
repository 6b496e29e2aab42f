/** Loading, empty and error states, and what an action did or why it failed: a page is never blank. */
import type { ReactNode } from "react";
import { errorMessage } from "../api.js";

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function ErrorBox({ error, title = "Something went wrong" }: { error: unknown; title?: string }) {
  return (
    <div className="error-box" role="alert">
      <strong>{title}:</strong> {errorMessage(error)}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Why an action on the page failed, after `prefix` if given; nothing while none has. */
export function ActionError({ error, prefix }: { error: unknown; prefix?: string }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      {prefix === undefined ? errorMessage(error) : `${prefix}: ${errorMessage(error)}`}
    </p>
  );
}

/** What an action on the page just did; nothing before it has. */
export function Notice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="notice" role="status">
      {text}
    </p>
  );
}

/** Under a field: why its value is refused, or else its help; `id` is what the field's aria-describedby names. */
export function FieldMessage({
  id,
  error,
  children,
}: {
  id: string;
  error: string | null;
  children: ReactNode;
}) {
  return error ? (
    <p className="field-error" id={id} role="alert">
      {error}
    </p>
  ) : (
    <p className="help" id={id}>
      {children}
    </p>
  );
}
