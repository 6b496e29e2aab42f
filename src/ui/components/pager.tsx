/** Server-side paging by cursor: the cursor is in the URL, so a page of a long list has a link. */
import type { PageInfo } from "../../client/types.js";
import { useUrlParam } from "./url-state.js";

export const PAGE_SIZE = 50;

export function useCursor(): [string, (cursor: string) => void] {
  return useUrlParam("after");
}

export function Pager({ info, onNext }: { info: PageInfo | undefined; onNext: (cursor: string) => void }) {
  const [after, setAfter] = useCursor();
  if (!info) return null;
  const more = info.end_cursor !== null && info.count >= PAGE_SIZE;
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted">
        {info.count} shown of {info.total_count}
      </span>
      {after !== "" && (
        <button type="button" className="secondary small" onClick={() => setAfter("")}>
          First page
        </button>
      )}
      {more && info.end_cursor && (
        <button type="button" className="secondary small" onClick={() => onNext(info.end_cursor ?? "")}>
          Next page
        </button>
      )}
    </nav>
  );
}
