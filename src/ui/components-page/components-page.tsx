/**
 * Components: the account's published components, a row per key with its versions; deploy one.
 * The search is the server's (`GET /v1/components?q=&registry=private`: the latest version of
 * each matching key), so it covers every page; a found key's other versions are a link away
 * (`?key=`). The search, the key and the page's cursor are in the URL.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import type { PageInfo } from "../../client/types.js";
import { api } from "../api.js";
import { PAGE_SIZE, Pager, useCursor } from "../components/pager.js";
import { SearchBox } from "../components/search-box.js";
import { useSearchQuery } from "../components/search-query.js";
import { Empty, ErrorBox, Loading } from "../components/status.js";
import { formatSeconds } from "../components/time.js";
import { useUrlParam } from "../components/url-state.js";

/** One key: its versions, newest first (only the latest when it comes from a search). */
interface ComponentRow {
  key: string;
  name: string;
  description: string | null;
  type: string;
  versions: string[];
  publishedAt: number;
  /** From a search: the other versions are on the key's own list. */
  latestOnly: boolean;
}

interface Version {
  key: string;
  version: string;
  name: string;
  description?: string | null;
  type: string;
  published_at: number;
}

/** Versions grouped by key, newest first (the API lists every version, newest first). */
function byKey(items: readonly Version[], latestOnly: boolean): ComponentRow[] {
  const rows = new Map<string, ComponentRow>();
  for (const item of items) {
    const row = rows.get(item.key);
    if (row) row.versions.push(item.version);
    else
      rows.set(item.key, {
        key: item.key,
        name: item.name,
        description: item.description ?? null,
        type: item.type,
        versions: [item.version],
        publishedAt: item.published_at,
        latestOnly,
      });
  }
  return [...rows.values()];
}

async function loadRows(
  needle: string,
  key: string,
  after: string,
): Promise<{ rows: ComponentRow[]; pageInfo: PageInfo }> {
  const page = { limit: PAGE_SIZE, ...(after ? { after } : {}) };
  if (needle && !key) {
    const found = await api.searchComponents({ ...page, q: needle, registry: "private" });
    return { rows: byKey(found.data, true), pageInfo: found.page_info };
  }
  const listed = await api.listPublished({ ...page, ...(key ? { key } : {}) });
  return { rows: byKey(listed.data, false), pageInfo: listed.page_info };
}

export function ComponentsPage() {
  const [after, setAfter] = useCursor();
  const [key, setKey] = useUrlParam("key");
  const needle = useSearchQuery();
  const published = useQuery({
    queryKey: ["published", needle, key, after],
    queryFn: () => loadRows(needle, key, after),
    placeholderData: (previous) => previous,
  });
  const rows = published.data?.rows ?? [];
  return (
    <section>
      <h1>Components</h1>
      <p className="muted">
        Components published with <code>sluice publish</code> or <code>POST /v1/components/publish</code>.
      </p>
      {key ? (
        <p className="row">
          <span>
            Every version of <code>{key}</code>.
          </span>
          <button
            type="button"
            className="secondary small"
            onClick={() => {
              setKey("");
              setAfter("");
            }}
          >
            All components
          </button>
        </p>
      ) : (
        <SearchBox label="Search components" />
      )}
      {published.isPending && <Loading what="components" />}
      {published.error && <ErrorBox error={published.error} />}
      {published.data && rows.length === 0 && (
        <Empty>{needle && !key ? "No component matches the search." : "No published components yet."}</Empty>
      )}
      {rows.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Components">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Versions</th>
                <th scope="col">Published</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <td className="mono">{row.key}</td>
                  <td>
                    {row.name}
                    {row.description && <div className="muted small">{row.description}</div>}
                  </td>
                  <td>{row.type}</td>
                  <td className="mono small">
                    {row.versions.join(", ")}
                    {row.latestOnly && (
                      <>
                        {" (latest) · "}
                        <Link
                          href={`/components?key=${encodeURIComponent(row.key)}`}
                          aria-label={`All versions of ${row.key}`}
                        >
                          all versions
                        </Link>
                      </>
                    )}
                  </td>
                  <td>{formatSeconds(row.publishedAt)}</td>
                  <td>
                    {row.type === "source" && (
                      <Link
                        href={`/sources?action=create&key=${encodeURIComponent(row.key)}`}
                        className="button"
                        aria-label={`Deploy ${row.key}`}
                      >
                        Deploy
                      </Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager info={published.data?.pageInfo} onNext={setAfter} />
    </section>
  );
}
