/**
 * How a deployed source, its component's props, its events and its log lines print. Secret values
 * are never in what the API returns (it masks them), so nothing here needs to hide anything.
 */
import Table from "cli-table3";
import type { Component, EventSummary, Source } from "../client/types.js";
import { type Column, formatTime, type OutputOptions, printJson } from "./output.js";
import { requiresValue } from "./props.js";

export const sourceColumns: readonly Column<Source>[] = [
  ["id", (source) => source.id],
  ["name", (source) => source.name_slug],
  ["component", (source) => source.component_key ?? source.component_id],
  ["active", (source) => source.active],
  ["endpoint_url", (source) => source.endpoint_url],
  ["created", (source) => formatTime(source.created_at)],
];

/** One source as a key/value table, its configured props one per line. */
export function printSource(options: OutputOptions, source: Source): void {
  if (options.json) {
    printJson(source);
    return;
  }
  process.stdout.write(`${sourceTable(source)}\n`);
}

export function sourceTable(source: Source): string {
  const table = new Table();
  const rows: [string, string][] = [
    ["id", source.id],
    ["name", `${source.name} (${source.name_slug})`],
    [
      "component",
      source.component_key ? `${source.component_key} (${source.component_id})` : source.component_id,
    ],
  ];
  if (source.endpoint_url) rows.push(["endpoint_url", source.endpoint_url]);
  rows.push(
    ["active", String(source.active)],
    ["timeout_seconds", String(source.timeout_seconds)],
    ["configured_props", propLines(source.configured_props)],
  );
  for (const [key, value] of rows) table.push({ [key]: value });
  return table.toString();
}

/** The component's configurable props, with the value the source has for each. */
export function componentPropsTable(component: Component, configured: Record<string, unknown>): string {
  if (component.configurable_props.length === 0) return `${component.name} has no props.`;
  const table = new Table({ head: ["prop", "type", "required", "value", "description"] });
  for (const prop of component.configurable_props) {
    const needed = requiresValue(prop);
    const required = needed === undefined ? "" : needed ? "yes" : "no";
    const value = prop.name in configured ? configured[prop.name] : prop.default;
    table.push([
      prop.secret ? `${prop.name} (secret)` : prop.name,
      prop.type,
      required,
      compact(value),
      prop.description ?? prop.label ?? "",
    ]);
  }
  return table.toString();
}

function propLines(props: Record<string, unknown>): string {
  const entries = Object.entries(props);
  if (entries.length === 0) return "(none)";
  return entries.map(([name, value]) => `${name}: ${compact(value)}`).join("\n");
}

/** A value on one line: strings as they are, anything else as compact JSON. */
export function compact(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Epoch milliseconds as a readable UTC time with milliseconds. */
export function formatMs(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ");
}

/** One readable line per event: time, id, channel if any, then its summary or its data. */
export function eventLine(item: EventSummary): string {
  const channel = item.metadata.name ? ` [${item.metadata.name}]` : "";
  const what =
    item.metadata.summary ??
    (item.event_truncated ? "(event too large to show; use --json)" : compact(item.event));
  return `${formatMs(item.indexed_at_ms)}  ${item.id}${channel}  ${what}`;
}

export function logLine(entry: { ts: number; level: string; message: string }): string {
  return `${formatMs(entry.ts)}  ${entry.level.padEnd(5)}  ${entry.message}`;
}
