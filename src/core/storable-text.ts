/**
 * Text that comes from outside Sluice's checks (a component's log lines, channels, event ids and
 * db keys; a webhook receiver's answer) on its way into a text column. PostgreSQL text cannot
 * hold NUL, so NUL is stored as U+FFFD (the replacement character) on every database alike,
 * rather than failing the write that carries it.
 */
export function storableText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}
