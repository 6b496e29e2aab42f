/** The inputs of a connect form shared by the keys and OAuth forms: the account name, and a registered app's fields (secret ones masked). */
import type { AppField } from "../../client/apps-client.js";

export function AppFieldInputs({
  fields,
  values,
  onChange,
  base,
}: {
  fields: readonly AppField[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  base: string;
}) {
  return (
    <>
      {fields.map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`${base}-${field.name}`}>{field.label ?? field.name}</label>
          {field.optional ? <span className="muted optional">optional</span> : null}
          <input
            id={`${base}-${field.name}`}
            type={field.secret ? "password" : "text"}
            autoComplete="off"
            value={values[field.name] ?? ""}
            onChange={(event) => onChange({ ...values, [field.name]: event.target.value })}
          />
          {field.description ? <p className="help">{field.description}</p> : null}
        </div>
      ))}
    </>
  );
}

/** The values typed, without the empty ones (an optional field left blank is not sent). */
export function filledValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, text]) => text !== ""));
}

/**
 * The new account's name, or, when an existing account is reconnected (its name kept), what
 * reconnecting does instead.
 */
export function AccountNameInput({
  base,
  name,
  onChange,
  reconnectHelp,
}: {
  base: string;
  name: string;
  onChange: (name: string) => void;
  /** Set when reconnecting: shown in place of the name field. */
  reconnectHelp: string | null;
}) {
  if (reconnectHelp !== null) return <p className="help">{reconnectHelp}</p>;
  return (
    <>
      <label htmlFor={`${base}-name`}>Account name</label>
      <input
        id={`${base}-name`}
        type="text"
        value={name}
        onChange={(event) => onChange(event.target.value)}
      />
    </>
  );
}
