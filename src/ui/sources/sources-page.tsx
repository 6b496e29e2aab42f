/** Sources: the account's deployed sources, a page at a time, searched on the server (`q`). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import { api, errorMessage } from "../api.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { PAGE_SIZE, Pager, useCursor } from "../components/pager.js";
import { SearchBox } from "../components/search-box.js";
import { useSearchQuery } from "../components/search-query.js";
import { Empty, ErrorBox, Loading } from "../components/status.js";
import { formatSeconds } from "../components/time.js";

export function SourcesPage() {
  const [after, setAfter] = useCursor();
  // One request per pause in typing; a new search starts again from the first page.
  const needle = useSearchQuery();
  const sources = useQuery({
    queryKey: ["sources", after, needle],
    queryFn: () =>
      api.listSources({ limit: PAGE_SIZE, ...(after ? { after } : {}), ...(needle ? { q: needle } : {}) }),
    placeholderData: (previous) => previous,
  });
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => api.deleteSource(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["sources"] }),
  });
  const shown = sources.data?.data ?? [];
  return (
    <section>
      <div className="page-head">
        <h1>Sources</h1>
        <Link href="/sources?action=create" className="button">
          New source
        </Link>
      </div>
      <SearchBox label="Search sources" />
      {remove.error && (
        <p className="field-error" role="alert">
          {errorMessage(remove.error)}
        </p>
      )}
      {sources.isPending && <Loading what="sources" />}
      {sources.error && <ErrorBox error={sources.error} />}
      {sources.data && shown.length === 0 && (
        <Empty>
          {needle ? "No source matches the search." : "No sources yet: create one to start receiving events."}
        </Empty>
      )}
      {shown.length > 0 && (
        <div className="table-wrap">
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Component</th>
                <th scope="col">State</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Last event</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((source) => (
                <tr key={source.id}>
                  <td data-label="Name">
                    <Link href={`/sources/${source.id}`}>{source.name}</Link>
                    <div className="muted mono small">{source.id}</div>
                  </td>
                  <td className="mono" data-label="Component">
                    {source.component_key ?? source.component_id}
                    {source.component_version ? `@${source.component_version}` : ""}
                  </td>
                  <td data-label="State">
                    <span className={source.active ? "badge ok" : "badge"}>
                      {source.active ? "active" : "paused"}
                    </span>
                  </td>
                  <td className="mono small break" data-label="Endpoint">
                    {source.endpoint_url ?? "—"}
                  </td>
                  <td data-label="Last event">
                    {source.last_event_at === null ? "none yet" : formatSeconds(source.last_event_at)}
                  </td>
                  <td>
                    <ConfirmButton
                      label="Delete"
                      question={`Delete the source ${source.name} and its events?`}
                      onConfirm={() => remove.mutate(source.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager info={sources.data?.page_info} onNext={setAfter} />
    </section>
  );
}
