/** The REST API's shapes of data stores (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { DataStore } from "../../core/data-stores/data-stores.js";

export function dataStoreView(store: DataStore & { recordCount?: number }) {
  return {
    id: store.id,
    name: store.name,
    created_at: Math.floor(store.createdAt / 1000),
    ...(store.recordCount === undefined ? {} : { record_count: store.recordCount }),
  };
}
