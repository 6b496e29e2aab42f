/** A one-line form that creates something (a webhook, a key, an account): its fields, then its button. */
import type { ReactNode } from "react";

export function InlineForm({
  label,
  submit,
  busy,
  onSubmit,
  children,
}: {
  /** The form's accessible name. */
  label: string;
  /** The submit button's text. */
  submit: string;
  busy: boolean;
  onSubmit: (data: FormData) => void;
  children: ReactNode;
}) {
  return (
    <form
      className="inline-form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget));
      }}
    >
      {children}
      <button type="submit" disabled={busy}>
        {submit}
      </button>
    </form>
  );
}
