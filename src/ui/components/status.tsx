/** Loading, empty and error states: a page is never blank. */
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
