/** A webhook's delivery log, newest first, filterable by status (in the URL); a row opens its attempts. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Delivery, DeliveryStatus } from "../../client/types.js";
import { api } from "../api.js";
import { type Column, DataTable } from "../components/data-table.js";
import { PAGE_SIZE, useCursor } from "../components/pager.js";
import { ActionError, ErrorBox, Loading } from "../components/status.js";
import { formatSeconds } from "../components/time.js";
import { useUrlParam } from "../components/url-state.js";

const STATUSES = ["", "pending", "delivered", "failed"] as const;

export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useUrlParam("status");
  const [after, setAfter] = useCursor();
  const [open, setOpen] = useUrlParam("delivery");
  const deliveries = useQuery({
    queryKey: ["deliveries", webhookId, status, after],
    queryFn: () =>
      api.listDeliveries(webhookId, {
        limit: PAGE_SIZE,
        ...(status ? { status: status as DeliveryStatus } : {}),
        ...(after ? { after } : {}),
      }),
    refetchInterval: 3_000,
  });
  const retry = useMutation({
    mutationFn: (id: string) => api.retryDelivery(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["deliveries", webhookId] }),
  });
  const columns: Column<Delivery>[] = [
    {
      header: "Created",
      cell: (delivery) => (
        <button
          type="button"
          className="link"
          onClick={() => setOpen(open === delivery.id ? "" : delivery.id)}
        >
          {formatSeconds(delivery.created_at)}
        </button>
      ),
    },
    {
      header: "Status",
      cell: (delivery) => (
        <span
          className={`badge ${delivery.status === "delivered" ? "ok" : delivery.status === "failed" ? "bad" : ""}`}
        >
          {delivery.status}
        </span>
      ),
    },
    { header: "Attempts", cell: (delivery) => delivery.attempts },
    { header: "Response", cell: (delivery) => delivery.last_status_code ?? "—" },
    {
      header: "Latency",
      cell: (delivery) => (delivery.last_latency_ms === null ? "—" : `${delivery.last_latency_ms} ms`),
    },
    { header: "Error", className: "small break", cell: (delivery) => delivery.last_error ?? "" },
    {
      header: "Actions",
      hideHeader: true,
      cell: (delivery) =>
        delivery.status !== "pending" && (
          <button type="button" className="secondary small" onClick={() => retry.mutate(delivery.id)}>
            Resend
          </button>
        ),
    },
  ];
  return (
    <div>
      <div className="row">
        <label htmlFor="status-filter">Status</label>
        <select id="status-filter" value={status} onChange={(event) => setStatus(event.target.value)}>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {value === "" ? "all" : value}
            </option>
          ))}
        </select>
      </div>
      <ActionError error={retry.error} />
      <DataTable
        query={deliveries}
        rows={deliveries.data?.data}
        what="deliveries"
        empty={`No deliveries${status ? ` with status ${status}` : ""}.`}
        columns={columns}
        rowKey={(delivery) => delivery.id}
        label="Deliveries"
        cards
        pageInfo={deliveries.data?.page_info}
        onNext={setAfter}
      />
      {open && <Attempts deliveryId={open} />}
    </div>
  );
}

function Attempts({ deliveryId }: { deliveryId: string }) {
  const delivery = useQuery({
    queryKey: ["delivery", deliveryId],
    queryFn: () => api.getDelivery(deliveryId),
  });
  if (delivery.isPending) return <Loading what="the attempts" />;
  if (delivery.error) return <ErrorBox error={delivery.error} />;
  return (
    <section aria-label="Attempts" className="attempts">
      <h3>Attempts of {deliveryId}</h3>
      <ol>
        {delivery.data.attempt_log.map((attempt) => (
          <li key={attempt.attempt}>
            <strong>#{attempt.attempt}</strong> {formatSeconds(attempt.at)} ·{" "}
            {attempt.status_code ?? "no answer"} ·{" "}
            {attempt.latency_ms === null ? "—" : `${attempt.latency_ms} ms`}
            {attempt.error && <div className="field-error">{attempt.error}</div>}
            {attempt.response_body && <pre className="code-view small wrap">{attempt.response_body}</pre>}
          </li>
        ))}
      </ol>
    </section>
  );
}
