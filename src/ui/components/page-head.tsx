/** The head of a resource's page: its name, the lines under it, and the page's action buttons. */
import type { ReactNode } from "react";
import { CopyButton } from "./copy-button.js";

export function PageHead({
  title,
  children,
  actions,
}: {
  title: string;
  /** The lines under the name (id, state, endpoint). */
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        {children}
      </div>
      {actions && <div className="row">{actions}</div>}
    </div>
  );
}

/** Where requests to a source or a workflow go, with a copy button; nothing without one. */
export function EndpointLine({ url }: { url: string | null | undefined }) {
  if (!url) return null;
  return (
    <p className="row">
      <span className="mono small break">{url}</span>
      <CopyButton text={url} label="Copy endpoint" />
    </p>
  );
}
