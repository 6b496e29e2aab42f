/** Workflows: the list, and deploying one by pasting its YAML document. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import type { WorkflowParams } from "../../client/types.js";
import type { Workflow } from "../../client/workflow-types.js";
import { api, errorMessage } from "../api.js";
import { type Column, DataTable } from "../components/data-table.js";
import { PAGE_SIZE, useCursor } from "../components/pager.js";
import { DocumentField } from "./document-field.js";
import { parseDocument } from "./yaml-document.js";

const EXAMPLE = `name: my-workflow
trigger:
  http: {}
steps:
  - name: hello
    code: |
      export default {
        type: "action",
        async run({ steps }) {
          return { received: steps.trigger.event.body };
        },
      };
`;

const COLUMNS: Column<Workflow>[] = [
  { header: "Name", cell: (workflow) => <Link href={`/workflows/${workflow.id}`}>{workflow.name}</Link> },
  { header: "Trigger", cell: (workflow) => workflow.trigger.type },
  { header: "Steps", cell: (workflow) => workflow.steps.length },
  {
    header: "State",
    cell: (workflow) => (
      <span className={workflow.active ? "badge ok" : "badge"}>{workflow.active ? "active" : "paused"}</span>
    ),
  },
];

export function WorkflowsPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [after, setAfter] = useCursor();
  const workflows = useQuery({
    queryKey: ["workflows", after],
    queryFn: () => api.listWorkflows({ limit: PAGE_SIZE, ...(after ? { after } : {}) }),
  });
  // A mutation, so that a session ended meanwhile sends the page to sign-in (main.tsx).
  const deploy = useMutation({ mutationFn: (document: WorkflowParams) => api.createWorkflow(document) });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section>
      <h1>Workflows</h1>
      <DataTable
        query={workflows}
        rows={workflows.data?.data}
        what="workflows"
        empty="No workflows yet: paste a document below to deploy one."
        columns={COLUMNS}
        rowKey={(workflow) => workflow.id}
        cards
        pageInfo={workflows.data?.page_info}
        onNext={setAfter}
      />
      <h2>Deploy a workflow</h2>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const text = String(new FormData(event.currentTarget).get("document") ?? "");
          setError(null);
          setBusy(true);
          try {
            const workflow = await deploy.mutateAsync(parseDocument(text));
            void queryClient.invalidateQueries({ queryKey: ["workflows"] });
            navigate(`/workflows/${workflow.id}`);
          } catch (failure) {
            setError(errorMessage(failure));
          } finally {
            setBusy(false);
          }
        }}
      >
        <DocumentField
          label="Workflow document (YAML)"
          rows={14}
          defaultValue={EXAMPLE}
          error={error}
          help={
            <>
              The same document <code>sluice workflows deploy</code> takes.
            </>
          }
        />
        <button type="submit" disabled={busy}>
          {busy ? "Deploying…" : "Deploy workflow"}
        </button>
      </form>
    </section>
  );
}
