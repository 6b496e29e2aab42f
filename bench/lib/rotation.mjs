/**
 * Two builds measured in rotation (A B B A, repeated), so that neither meets the machine colder
 * or busier than the other, and the medians of what each run measured.
 */
import { percentile } from "./stats.mjs";

/** Calls `measure("A")` and `measure("B")` in the order A B B A, `rounds` times. */
export async function inRotation(rounds, measure) {
  for (let round = 0; round < rounds; round++) {
    for (const name of ["A", "B", "B", "A"]) await measure(name);
  }
}

/** The median of `key` over `rows` (objects of figures, one a run). */
export function medianOf(rows, key) {
  return percentile(
    rows.map((row) => row[key]),
    50,
  );
}
