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

/** An inline form of one `name` field, giving the name typed, trimmed (an account's, a key's). */
export function NameForm({
  label,
  submit,
  busy,
  field,
  onName,
}: {
  label: string;
  submit: string;
  busy: boolean;
  field: { id: string; label: string; required?: boolean; placeholder?: string };
  onName: (name: string) => void;
}) {
  return (
    <InlineForm
      label={label}
      submit={submit}
      busy={busy}
      onSubmit={(data) => onName(String(data.get("name") ?? "").trim())}
    >
      <div className="field grow">
        <label htmlFor={field.id}>{field.label}</label>
        <input id={field.id} name="name" required={field.required} placeholder={field.placeholder} />
      </div>
    </InlineForm>
  );
}
