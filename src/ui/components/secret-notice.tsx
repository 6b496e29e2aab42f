/** A secret the server shows only once (a signing secret, an API key), with what it is and a copy button. */
import type { ReactNode } from "react";
import { CopyButton } from "./copy-button.js";

export function SecretNotice({
  secret,
  copyLabel,
  children,
}: {
  secret: string;
  copyLabel: string;
  /** What the secret is, said above it. */
  children: ReactNode;
}) {
  return (
    <div className="notice ok" role="status">
      <p>{children}</p>
      <p className="row">
        <code className="secret">{secret}</code>
        <CopyButton text={secret} label={copyLabel} />
      </p>
    </div>
  );
}
