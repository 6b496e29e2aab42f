/**
 * A `data_store` prop: a picker of the account's data stores (`GET /v1/data_stores`), and
 * "New data store", which creates one by name (`POST /v1/data_stores`) and selects it. The
 * configured value is the store's `ds_` id.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../api.js";
import { ActionError } from "../components/status.js";
import type { PropInputProps } from "./prop-input-props.js";

interface DataStore {
  id: string;
  name: string;
  record_count?: number;
}

const dataStores = {
  list: () => api.data<DataStore[]>("GET", "/v1/data_stores"),
  create: (name: string) => api.data<DataStore>("POST", "/v1/data_stores", { body: { name } }),
};

export function DataStoreInput({ prop, id, value, onChange, describedBy, invalid }: PropInputProps) {
  const queryClient = useQueryClient();
  const stores = useQuery({ queryKey: ["data-stores"], queryFn: dataStores.list });
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => dataStores.create(name.trim()),
    onSuccess: (store) => {
      queryClient.setQueryData<DataStore[]>(["data-stores"], (listed) => [...(listed ?? []), store]);
      void queryClient.invalidateQueries({ queryKey: ["data-stores"] });
      setCreating(false);
      setName("");
      onChange(store.id);
    },
  });
  const chosen = typeof value === "string" ? value : "";
  const listed = stores.data ?? [];
  const label = prop.label ?? prop.name;
  return (
    <div className="data-store-input">
      <select
        id={id}
        value={chosen}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        aria-busy={stores.isFetching}
      >
        <option value="">{listed.length === 0 ? "No data store yet" : "Choose a data store…"}</option>
        {chosen && !listed.some((store) => store.id === chosen) && <option value={chosen}>{chosen}</option>}
        {listed.map((store) => (
          <option key={store.id} value={store.id}>
            {store.name} ({store.id})
          </option>
        ))}
      </select>
      <ActionError error={stores.error} prefix="Could not list the data stores" />
      {creating ? (
        // Not a <form>: it sits inside the props form.
        <div className="key-value">
          <input
            type="text"
            aria-label={`New data store name for ${label}`}
            placeholder="orders"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <button
            type="button"
            disabled={name.trim() === "" || create.isPending}
            onClick={() => create.mutate()}
          >
            {create.isPending ? "Creating…" : "Create data store"}
          </button>
          <button type="button" className="secondary" onClick={() => setCreating(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="secondary small" onClick={() => setCreating(true)}>
          New data store
        </button>
      )}
      <ActionError error={create.error} />
    </div>
  );
}
