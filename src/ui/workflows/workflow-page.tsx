/** A workflow: runs with a per-step inspector, replay and "run with this event"; the document. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Workflow } from "../../client/types.js";
import { api, errorMessage } from "../api.js";
import { EndpointLine, PageHead } from "../components/page-head.js";
import { ErrorBox, Loading } from "../components/status.js";
import { TabList, TabPanel, useTab } from "../components/tabs.js";
import { DocumentField } from "./document-field.js";
import { RunsTab } from "./runs-tab.js";
import { documentOf, parseDocument } from "./yaml-document.js";

const TABS = ["runs", "document"] as const;

export function WorkflowPage({ id }: { id: string }) {
  const [tab, setTab] = useTab(TABS);
  const workflow = useQuery({ queryKey: ["workflow", id], queryFn: () => api.getWorkflow(id) });
  if (workflow.isPending) return <Loading what="the workflow" />;
  if (workflow.error) return <ErrorBox error={workflow.error} />;
  const data = workflow.data;
  return (
    <section>
      <PageHead title={data.name}>
        <p className="muted mono small">
          {data.id} · {data.trigger.type} trigger · {data.steps.length} step(s)
        </p>
        <EndpointLine url={data.endpoint_url} />
      </PageHead>
      <TabList tabs={TABS} current={tab} onSelect={setTab} label="Workflow" />
      <TabPanel tab={tab}>
        {tab === "runs" ? <RunsTab workflowId={data.id} /> : <DocumentTab workflow={data} />}
      </TabPanel>
    </section>
  );
}

function DocumentTab({ workflow }: { workflow: Workflow }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: (text: string) => api.updateWorkflow(workflow.id, parseDocument(text)),
    onSuccess: (updated) => {
      setError(null);
      queryClient.setQueryData(["workflow", workflow.id], updated);
    },
    onError: (failure) => setError(errorMessage(failure)),
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(String(new FormData(event.currentTarget).get("document") ?? ""));
      }}
    >
      <DocumentField
        key={workflow.updated_at}
        label="Document (YAML)"
        rows={18}
        defaultValue={documentOf(workflow)}
        error={error}
        help={
          update.isSuccess
            ? "Updated; the workflow keeps its id and endpoint."
            : "Edit and update; the id and endpoint stay."
        }
      />
      <button type="submit" disabled={update.isPending}>
        Update workflow
      </button>
    </form>
  );
}
