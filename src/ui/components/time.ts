/** Times as people read them. The API speaks epoch seconds (and ms in a few fields). */
export function formatSeconds(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? "—" : formatMs(seconds * 1000);
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms === 0) return "—";
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}
