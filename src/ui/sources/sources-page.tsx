/** Sources: the account's deployed sources, a page at a time, searched on the server (`q`). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import type { Source } from "../../client/types.js";
import { api } from "../api.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { type Column, DataTable } from "../components/data-table.js";
import { PAGE_SIZE, useCursor } from "../components/pager.js";
import { SearchBox } from "../components/search-box.js";
import { useSearchQuery } from "../components/search-query.js";
import { ActionError } from "../components/status.js";
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
  const columns: Column<Source>[] = [
    {
      header: "Name",
      cell: (source) => (
        <>
          <Link href={`/sources/${source.id}`}>{source.name}</Link>
          <div className="muted mono small">{source.id}</div>
        </>
      ),
    },
    {
      header: "Component",
      className: "mono",
      cell: (source) =>
        `${source.component_key ?? source.component_id}${source.component_version ? `@${source.component_version}` : ""}`,
    },
    {
      header: "State",
      cell: (source) => (
        <span className={source.active ? "badge ok" : "badge"}>{source.active ? "active" : "paused"}</span>
      ),
    },
    { header: "Endpoint", className: "mono small break", cell: (source) => source.endpoint_url ?? "—" },
    {
      header: "Last event",
      cell: (source) => (source.last_event_at === null ? "none yet" : formatSeconds(source.last_event_at)),
    },
    {
      header: "Actions",
      hideHeader: true,
      cell: (source) => (
        <ConfirmButton
          label="Delete"
          question={`Delete the source ${source.name} and its events?`}
          onConfirm={() => remove.mutate(source.id)}
        />
      ),
    },
  ];
  return (
    <section>
      <div className="page-head">
        <h1>Sources</h1>
        <Link href="/sources?action=create" className="button">
          New source
        </Link>
      </div>
      <SearchBox label="Search sources" />
      <ActionError error={remove.error} />
      <DataTable
        query={sources}
        rows={sources.data?.data}
        what="sources"
        empty={
          needle ? "No source matches the search." : "No sources yet: create one to start receiving events."
        }
        columns={columns}
        rowKey={(source) => source.id}
        cards
        pageInfo={sources.data?.page_info}
        onNext={setAfter}
      />
    </section>
  );
}
