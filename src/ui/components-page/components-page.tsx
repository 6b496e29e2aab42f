/** Components: the account's published components, a row per key with its versions; deploy one. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import type { PublishedComponent } from "../../client/types.js";
import { api } from "../api.js";
import { PAGE_SIZE, Pager, useCursor } from "../components/pager.js";
import { SearchBox } from "../components/search-box.js";
import { Empty, ErrorBox, Loading } from "../components/status.js";
import { formatSeconds } from "../components/time.js";
import { useUrlParam } from "../components/url-state.js";

/** Versions grouped by key, newest first (the API lists every version, newest first). */
function byKey(items: readonly PublishedComponent[]): PublishedComponent[][] {
  const groups = new Map<string, PublishedComponent[]>();
  for (const item of items) groups.set(item.key, [...(groups.get(item.key) ?? []), item]);
  return [...groups.values()];
}

export function ComponentsPage() {
  const [after, setAfter] = useCursor();
  const [query] = useUrlParam("q");
  const published = useQuery({
    queryKey: ["published", after],
    queryFn: () => api.listPublished({ limit: PAGE_SIZE, ...(after ? { after } : {}) }),
  });
  const needle = query.trim().toLowerCase();
  const groups = byKey(published.data?.data ?? []).filter(
    (versions) =>
      needle === "" ||
      versions.some((item) =>
        [item.key, item.name, item.description ?? ""].some((field) => field.toLowerCase().includes(needle)),
      ),
  );
  return (
    <section>
      <h1>Components</h1>
      <p className="muted">
        Components published with <code>sluice publish</code> or <code>POST /v1/components/publish</code>.
      </p>
      <SearchBox label="Search components" />
      {published.isPending && <Loading what="components" />}
      {published.error && <ErrorBox error={published.error} />}
      {published.data && groups.length === 0 && (
        <Empty>
          {needle ? "No component on this page matches the search." : "No published components yet."}
        </Empty>
      )}
      {groups.length > 0 && (
        <div className="table-wrap">
          <table>
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
              {groups.map((versions) => {
                const latest = versions[0] as PublishedComponent;
                return (
                  <tr key={latest.key}>
                    <td className="mono">{latest.key}</td>
                    <td>
                      {latest.name}
                      {latest.description && <div className="muted small">{latest.description}</div>}
                    </td>
                    <td>{latest.type}</td>
                    <td className="mono small">{versions.map((item) => item.version).join(", ")}</td>
                    <td>{formatSeconds(latest.published_at)}</td>
                    <td>
                      {latest.type === "source" && (
                        <Link
                          href={`/sources?action=create&key=${encodeURIComponent(latest.key)}`}
                          className="button"
                          aria-label={`Deploy ${latest.key}`}
                        >
                          Deploy
                        </Link>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager info={published.data?.page_info} onNext={setAfter} />
    </section>
  );
}
