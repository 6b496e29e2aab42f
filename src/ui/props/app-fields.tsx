/** The inputs of a registered app's fields (secret ones masked), shared by the keys and OAuth forms. */
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
