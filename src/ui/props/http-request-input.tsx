/**
 * An `http_request` prop: the method, the URL, params and headers as name/value rows, and a raw
 * body with its content type. Its value is an HttpRequestValue (http-request-value.ts).
 */
import { HTTP_METHODS, type HttpRequestValue, type NamedRow } from "./http-request-value.js";
import type { PropInputProps } from "./prop-input-props.js";

function Rows({
  what,
  rows,
  onChange,
  base,
}: {
  what: "Param" | "Header";
  rows: NamedRow[];
  onChange: (rows: NamedRow[]) => void;
  base: string;
}) {
  const set = (index: number, change: Partial<NamedRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <div className="http-rows">
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
        <div className="key-value" key={index}>
          <input
            id={`${base}-${what}-${index}-name`}
            type="text"
            aria-label={`${what} ${index + 1} name`}
            value={row.name}
            onChange={(event) => set(index, { name: event.target.value })}
          />
          <input
            type="text"
            aria-label={`${what} ${index + 1} value`}
            value={row.value}
            onChange={(event) => set(index, { value: event.target.value })}
          />
          <button
            type="button"
            className="secondary small"
            aria-label={`Remove ${what.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(rows.filter((_, at) => at !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary small"
        onClick={() => onChange([...rows, { name: "", value: "" }])}
      >
        Add a {what.toLowerCase()}
      </button>
    </div>
  );
}

export function HttpRequestInput({ prop, id, value, onChange, describedBy, invalid }: PropInputProps) {
  const request = value as HttpRequestValue;
  const set = (change: Partial<HttpRequestValue>) => onChange({ ...request, ...change });
  const known: readonly string[] = HTTP_METHODS;
  const methods = known.includes(request.method) ? known : [request.method, ...known];
  return (
    <fieldset id={id} className="http-request" aria-describedby={describedBy}>
      <legend className="visually-hidden">{prop.label ?? prop.name}</legend>
      <div className="http-line">
        <label>
          Method
          <select value={request.method} onChange={(event) => set({ method: event.target.value })}>
            {methods.map((method) => (
              <option key={method}>{method}</option>
            ))}
          </select>
        </label>
        <label>
          URL
          <input
            type="url"
            placeholder="https://api.example.com/items"
            value={request.url}
            onChange={(event) => set({ url: event.target.value })}
            aria-invalid={invalid}
          />
        </label>
      </div>
      <p className="muted small">Params</p>
      <Rows what="Param" rows={request.params} base={id} onChange={(params) => set({ params })} />
      <p className="muted small">Headers</p>
      <Rows what="Header" rows={request.headers} base={id} onChange={(headers) => set({ headers })} />
      <label>
        Body content type
        <input
          type="text"
          value={request.contentType}
          onChange={(event) => set({ contentType: event.target.value })}
        />
      </label>
      <label>
        Body
        <textarea
          className="code"
          rows={4}
          spellCheck={false}
          value={request.body}
          onChange={(event) => set({ body: event.target.value })}
        />
      </label>
    </fieldset>
  );
}
