/**
 * Small statistics helpers shared by the scenarios: nearest-rank percentiles, a summary of a
 * sample, rounding for the report, and the ratio of a figure to its baseline.
 */

/** The p-th percentile (0–100) of the values, nearest rank; NaN for an empty sample. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** count, min, p50, p90, p99, max and mean of a sample of numbers (all null when it is empty). */
export function summarize(values) {
  if (values.length === 0)
    return { count: 0, min: null, p50: null, p90: null, p99: null, max: null, mean: null };
  const total = values.reduce((sum, value) => sum + value, 0);
  return {
    count: values.length,
    min: round(Math.min(...values)),
    p50: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
    mean: round(total / values.length),
  };
}

/** Rounds to `digits` decimals (3 by default); leaves non-finite values alone. */
export function round(value, digits = 3) {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** figure ÷ baseline, rounded; null when the baseline is zero or missing. */
export function ratio(value, baseline) {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return null;
  return round(value / baseline, 3);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `task(item)` over the items with at most `limit` at once; resolves to the results in order. */
export async function mapLimit(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
