/**
 * Event and log ids are `<ms>-<seq>` (Pipedream's shape). They rise strictly per emitter: the
 * emitter's row holds the last id handed out and is updated in the same transaction, so ids are
 * unique across nodes and a stream can resume after any id.
 */
import { InvalidInputError } from "../errors.js";

export interface SequenceId {
  readonly ms: number;
  readonly seq: number;
}

/** The next id after `last`, at `now` when the clock has moved on, else in the same millisecond. */
export function nextSequenceId(last: SequenceId, now: number): SequenceId {
  return now > last.ms ? { ms: now, seq: 0 } : { ms: last.ms, seq: last.seq + 1 };
}

export function formatSequenceId(id: SequenceId): string {
  return `${id.ms}-${id.seq}`;
}

export function parseSequenceId(text: string, parameter = "id"): SequenceId {
  const match = /^(\d{1,15})-(\d{1,9})$/.exec(text);
  if (!match)
    throw new InvalidInputError(`${parameter} must be an event id such as 1700000000000-0, got '${text}'`);
  return { ms: Number(match[1]), seq: Number(match[2]) };
}
