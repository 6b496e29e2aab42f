/**
 * Dedupe strategies exactly as SPEC.md states them, applied to one invocation's events ordered by
 * `ts`, against the state kept with the source: `unique` (the last 100 ids), `greatest` (numeric
 * ids above the largest seen), `last` (the events after the last emitted id, or all when it is
 * not among them). Under a strategy an event without an id is refused and logged, never dropped.
 */
import type { EmittedEvent } from "../../runtime/sandbox/sandbox.js";

export const UNIQUE_CACHE_SIZE = 100;

export type DedupeState =
  | { readonly strategy: "unique"; readonly ids: readonly string[] }
  | { readonly strategy: "greatest"; readonly greatest: number | null }
  | { readonly strategy: "last"; readonly last: string | null };

export interface DedupeOutcome {
  readonly accepted: EmittedEvent[];
  /** Events refused for a missing or unusable id, with the reason. */
  readonly refused: { readonly emit: EmittedEvent; readonly reason: string }[];
  /** How many events the strategy dropped as already seen. */
  readonly duplicates: number;
  readonly state: DedupeState | null;
}

/** Orders by `ts` (oldest first); events without `ts` count as emitted at `now`. Stable. */
export function orderByTs(emits: readonly EmittedEvent[], now: number): EmittedEvent[] {
  if (!emits.some((emit) => typeof emit.meta.ts === "number")) return [...emits];
  const tsOf = (emit: EmittedEvent) => (typeof emit.meta.ts === "number" ? emit.meta.ts : now);
  return emits
    .map((emit, index) => ({ emit, index }))
    .sort((a, b) => tsOf(a.emit) - tsOf(b.emit) || a.index - b.index)
    .map(({ emit }) => emit);
}

export function applyDedupe(
  strategy: string | undefined,
  previous: DedupeState | null,
  emits: readonly EmittedEvent[],
): DedupeOutcome {
  if (strategy !== "unique" && strategy !== "greatest" && strategy !== "last") {
    return { accepted: [...emits], refused: [], duplicates: 0, state: previous };
  }
  const refused: { emit: EmittedEvent; reason: string }[] = [];
  const withIds: { emit: EmittedEvent; id: string }[] = [];
  for (const emit of emits) {
    const id = emit.meta.id;
    if (id === undefined || id === null || id === "") {
      refused.push({ emit, reason: `dedupe '${strategy}' needs an id: pass $emit(event, { id })` });
    } else {
      withIds.push({ emit, id: String(id) });
    }
  }
  if (strategy === "unique") return { ...unique(previous, withIds), refused };
  if (strategy === "greatest") return greatest(previous, withIds, refused);
  return { ...last(previous, withIds), refused };
}

function unique(previous: DedupeState | null, emits: { emit: EmittedEvent; id: string }[]) {
  const ids = previous?.strategy === "unique" ? [...previous.ids] : [];
  const seen = new Set(ids);
  const accepted: EmittedEvent[] = [];
  for (const { emit, id } of emits) {
    if (seen.has(id)) continue;
    accepted.push(emit);
    ids.push(id);
    seen.add(id);
    if (ids.length > UNIQUE_CACHE_SIZE) seen.delete(ids.shift() as string);
  }
  return {
    accepted,
    duplicates: emits.length - accepted.length,
    state: { strategy: "unique", ids } as const,
  };
}

function greatest(
  previous: DedupeState | null,
  emits: { emit: EmittedEvent; id: string }[],
  refused: { emit: EmittedEvent; reason: string }[],
): DedupeOutcome {
  let largest = previous?.strategy === "greatest" ? previous.greatest : null;
  const accepted: EmittedEvent[] = [];
  let duplicates = 0;
  for (const { emit, id } of emits) {
    const value = Number(id);
    if (id.trim() === "" || !Number.isFinite(value)) {
      refused.push({ emit, reason: `dedupe 'greatest' needs a numeric id, got '${id}'` });
      continue;
    }
    if (largest !== null && value <= largest) {
      duplicates++;
      continue;
    }
    accepted.push(emit);
    largest = value;
  }
  return { accepted, refused, duplicates, state: { strategy: "greatest", greatest: largest } };
}

function last(previous: DedupeState | null, emits: { emit: EmittedEvent; id: string }[]) {
  const cached = previous?.strategy === "last" ? previous.last : null;
  const match = cached === null ? -1 : emits.findIndex(({ id }) => id === cached);
  const kept = match < 0 ? emits : emits.slice(match + 1);
  const newest = kept.at(-1)?.id ?? cached;
  return {
    accepted: kept.map(({ emit }) => emit),
    duplicates: emits.length - kept.length,
    state: { strategy: "last", last: newest } as const,
  };
}
