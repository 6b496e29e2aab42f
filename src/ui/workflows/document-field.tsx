/** A workflow document's text area (YAML), with the server's complaint about it or a line of help. */
import type { ReactNode } from "react";
import { FieldMessage } from "../components/status.js";

export function DocumentField({
  label,
  rows,
  defaultValue,
  error,
  help,
}: {
  label: string;
  rows: number;
  defaultValue: string;
  error: string | null;
  help: ReactNode;
}) {
  return (
    <>
      <label htmlFor="document">{label}</label>
      <textarea
        id="document"
        name="document"
        className="code"
        rows={rows}
        spellCheck={false}
        defaultValue={defaultValue}
        aria-invalid={error !== null}
        aria-describedby="document-msg"
      />
      <FieldMessage id="document-msg" error={error}>
        {help}
      </FieldMessage>
    </>
  );
}
