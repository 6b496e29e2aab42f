/** The search box's text (`?q=`) as a server-side search asks for it. */
import { useEffect, useState } from "react";
import { useCursor } from "./pager.js";
import { useUrlParam } from "./url-state.js";

const SEARCH_DELAY_MS = 250;

/**
 * The trimmed `q` once typing pauses, so a search is one request per pause, not per key; a new
 * search starts again from the first page (it clears `after`).
 */
export function useSearchQuery(): string {
  const [query] = useUrlParam("q");
  const [after, setAfter] = useCursor();
  const [needle, setNeedle] = useState(query.trim());
  useEffect(() => {
    const timer = setTimeout(() => {
      if (query.trim() === needle) return;
      setNeedle(query.trim());
      if (after !== "") setAfter("");
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, needle, after, setAfter]);
  return needle;
}
