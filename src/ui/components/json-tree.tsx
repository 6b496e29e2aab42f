/** A collapsible JSON view: objects and arrays open to two levels; each toggle is a button. */
import { useState } from "react";

export function JsonTree({ value, label = "payload" }: { value: unknown; label?: string }) {
  return (
    <section className="json-tree" aria-label={label}>
      <JsonNode name={null} value={value} depth={0} />
    </section>
  );
}

function JsonNode({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const [open, setOpen] = useState(depth < 2);
  const key = name === null ? null : <span className="json-key">{name}: </span>;
  if (value === null || typeof value !== "object") {
    return (
      <div className="json-leaf">
        {key}
        <Scalar value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value as Record<string, unknown>);
  const brackets = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return (
    <div>
      <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "▾" : "▸"} {key}
        {brackets[0]}
        {open ? "" : ` ${entries.length} ${entries.length === 1 ? "item" : "items"} ${brackets[1]}`}
      </button>
      {open && (
        <div className="json-children">
          {entries.map(([childName, child]) => (
            <JsonNode key={childName} name={childName} value={child} depth={depth + 1} />
          ))}
          <span>{brackets[1]}</span>
        </div>
      )}
    </div>
  );
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === "string") return <span className="json-string">"{value}"</span>;
  if (typeof value === "number") return <span className="json-number">{value}</span>;
  if (typeof value === "boolean") return <span className="json-boolean">{String(value)}</span>;
  return <span className="json-null">{value === undefined ? "undefined" : "null"}</span>;
}
