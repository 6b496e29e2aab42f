/** A source: its tabs (events, logs, configuration, subscriptions) and its actions. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../api.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { EndpointLine, PageHead } from "../components/page-head.js";
import { ActionError, ErrorBox, Loading, Notice } from "../components/status.js";
import { TabList, TabPanel, useTab } from "../components/tabs.js";
import { useDeleteAndLeave } from "../components/use-delete-and-leave.js";
import { ConfigurationTab } from "./configuration-tab.js";
import { EventsTab } from "./events-tab.js";
import { LogsTab } from "./logs-tab.js";
import { SubscriptionsTab } from "./subscriptions-tab.js";

const TABS = ["events", "logs", "configuration", "subscriptions"] as const;

export function SourcePage({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const [tab, setTab] = useTab(TABS);
  const [notice, setNotice] = useState<string | null>(null);
  const source = useQuery({ queryKey: ["source", id], queryFn: () => api.getSource(id) });
  const run = useMutation({
    mutationFn: () => api.runSource(id),
    onSuccess: (result) =>
      setNotice(
        result.ok
          ? `Ran in ${result.duration_ms} ms, ${result.events.length} event(s)`
          : `The run failed: ${result.failure?.message ?? "unknown"}`,
      ),
  });
  const toggle = useMutation({
    mutationFn: (active: boolean) => api.updateSource(id, { active }),
    onSuccess: (updated) => queryClient.setQueryData(["source", id], updated),
  });
  const remove = useDeleteAndLeave(() => api.deleteSource(id), "sources", "/sources");
  if (source.isPending) return <Loading what="the source" />;
  if (source.error) return <ErrorBox error={source.error} />;
  const data = source.data;
  const failure = run.error ?? toggle.error ?? remove.error;
  return (
    <section>
      <PageHead
        title={data.name}
        actions={
          <>
            <button type="button" onClick={() => run.mutate()} disabled={run.isPending}>
              {run.isPending ? "Running…" : "Run now"}
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => toggle.mutate(!data.active)}
              disabled={toggle.isPending}
            >
              {data.active ? "Pause" : "Activate"}
            </button>
            <ConfirmButton
              label="Delete"
              question={`Delete the source ${data.name} and its events?`}
              onConfirm={() => remove.mutate()}
            />
          </>
        }
      >
        <p className="muted mono small">
          {data.id} · {data.component_key ?? data.component_id} ·{" "}
          <span className={data.active ? "badge ok" : "badge"}>{data.active ? "active" : "paused"}</span>
        </p>
        <EndpointLine url={data.endpoint_url} />
      </PageHead>
      <Notice text={notice} />
      <ActionError error={failure} />
      <TabList tabs={TABS} current={tab} onSelect={setTab} label="Source" />
      <TabPanel tab={tab}>
        {tab === "events" && <EventsTab sourceId={data.id} />}
        {tab === "logs" && <LogsTab sourceId={data.id} />}
        {tab === "configuration" && <ConfigurationTab source={data} />}
        {tab === "subscriptions" && <SubscriptionsTab sourceId={data.id} />}
      </TabPanel>
    </section>
  );
}
