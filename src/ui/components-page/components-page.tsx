/**
 * Components: the account's published components and the public registry, a row per key, from the
 * server's search (`GET /v1/components?q=&registry=`); a key's versions are a link away (`?key=`).
 * The search, the registry, the key and the page's cursor are in the URL.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import type { PageInfo } from "../../client/types.js";
import { api } from "../api.js";
import { type Column, DataTable } from "../components/data-table.js";
import { PAGE_SIZE, useCursor } from "../components/pager.js";
import { RadioChoice } from "../components/radio-choice.js";
import { SearchBox } from "../components/search-box.js";
import { useSearchQuery } from "../components/search-query.js";
import { formatSeconds } from "../components/time.js";
import { useUrlParam } from "../components/url-state.js";

type Registry = "all" | "private" | "public";
const REGISTRIES: { value: Registry; label: string }[] = [
  { value: "all", label: "All" },
  { value: "private", label: "Mine" },
  { value: "public", label: "Public registry" },
];

/** One key: its versions, newest first (only the latest when it comes from the list). */
interface ComponentRow {
  key: string;
  registry: "public" | "private";
  name: string;
  description: string | null;
  type: string;
  versions: string[];
  publishedAt: number;
  /** From the list: the other versions are on the key's own page. */
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

function rowOf(item: Version, registry: ComponentRow["registry"], latestOnly: boolean): ComponentRow {
  return {
    key: item.key,
    registry,
    name: item.name,
    description: item.description ?? null,
    type: item.type,
    versions: [item.version],
    publishedAt: item.published_at,
    latestOnly,
  };
}

/** Versions grouped by key, newest first (the APIs list every version, newest first). */
function byKey(items: readonly Version[], registry: ComponentRow["registry"]): ComponentRow[] {
  const rows = new Map<string, ComponentRow>();
  for (const item of items) {
    const row = rows.get(item.key);
    if (row) row.versions.push(item.version);
    else rows.set(item.key, rowOf(item, registry, false));
  }
  return [...rows.values()];
}

async function loadRows(
  needle: string,
  registry: Registry,
  key: string,
  after: string,
): Promise<{ rows: ComponentRow[]; pageInfo?: PageInfo }> {
  const page = { limit: PAGE_SIZE, ...(after ? { after } : {}) };
  if (key && registry === "public") {
    const detail = await api.getPublic(key);
    return { rows: byKey(detail.versions ?? [], "public") };
  }
  if (key) {
    const listed = await api.listPublished({ ...page, key });
    return { rows: byKey(listed.data, "private"), pageInfo: listed.page_info };
  }
  const found = await api.searchComponents({ ...page, registry, ...(needle ? { q: needle } : {}) });
  const rows = found.data.map((item) => rowOf(item, item.registry, true));
  return { rows, pageInfo: found.page_info };
}

function versionsHref(row: ComponentRow): string {
  const query = new URLSearchParams({ key: row.key });
  if (row.registry === "public") query.set("registry", "public");
  return `/components?${query}`;
}

const COLUMNS: Column<ComponentRow>[] = [
  { header: "Key", className: "mono", cell: (row) => row.key },
  {
    header: "Name",
    cell: (row) => (
      <>
        {row.name}
        {row.description && <div className="muted small">{row.description}</div>}
      </>
    ),
  },
  { header: "Type", cell: (row) => row.type },
  { header: "Registry", cell: (row) => (row.registry === "public" ? "public" : "mine") },
  {
    header: "Versions",
    className: "mono small",
    cell: (row) => (
      <>
        {row.versions.join(", ")}
        {row.latestOnly && (
          <>
            {" (latest) · "}
            <Link href={versionsHref(row)} aria-label={`All versions of ${row.key}`}>
              all versions
            </Link>
          </>
        )}
      </>
    ),
  },
  { header: "Published", cell: (row) => formatSeconds(row.publishedAt) },
  {
    header: "Actions",
    hideHeader: true,
    cell: (row) =>
      row.type === "source" && (
        <Link
          href={`/sources?action=create&key=${encodeURIComponent(row.key)}`}
          className="button"
          aria-label={`Deploy ${row.key}`}
        >
          Deploy
        </Link>
      ),
  },
];

export function ComponentsPage() {
  const [after, setAfter] = useCursor();
  const [key, setKey] = useUrlParam("key");
  const [registryParam, setRegistry] = useUrlParam("registry", "all");
  const registry: Registry = REGISTRIES.some((option) => option.value === registryParam)
    ? (registryParam as Registry)
    : "all";
  const needle = useSearchQuery();
  const published = useQuery({
    queryKey: ["published", needle, registry, key, after],
    queryFn: () => loadRows(needle, registry, key, after),
    placeholderData: (previous) => previous,
  });
  return (
    <section>
      <h1>Components</h1>
      <p className="muted">
        Yours, published with <code>sluice publish</code>, and the server's public registry (
        <code>sluice publish --public</code>). Deploying a public source copies it into your account.
      </p>
      {key ? (
        <p className="row">
          <span>
            Every version of <code>{key}</code>
            {registry === "public" ? " in the public registry" : ""}.
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
        <div className="row">
          <SearchBox label="Search components" />
          <RadioChoice
            name="registry"
            legend="Registry"
            hideLegend
            className="registry-filter"
            options={REGISTRIES}
            value={registry}
            onChange={(value) => {
              setAfter("");
              setRegistry(value);
            }}
          />
        </div>
      )}
      <DataTable
        query={published}
        rows={published.data?.rows}
        what="components"
        empty={
          needle && !key
            ? "No component matches the search."
            : registry === "public"
              ? "Nothing is published in the public registry yet."
              : "No published components yet."
        }
        columns={COLUMNS}
        rowKey={(row) => `${row.registry}:${row.key}`}
        label="Components"
        cards
        pageInfo={published.data?.pageInfo}
        onNext={setAfter}
      />
    </section>
  );
}
