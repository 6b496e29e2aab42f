/**
 * A store on a fresh database of one dialect for the tests of a `describe`: opened before them
 * (and handed to `opened`), closed and the database removed after them.
 */
import { afterAll, beforeAll } from "vitest";
import { openStore, type Store } from "../../src/store/store.js";
import type { TestDatabase, TestDialect } from "./dialects.js";

export function storeForSuite(
  dialect: TestDialect,
  opened: (store: Store, database: TestDatabase) => void,
): void {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await dialect.create();
    store = await openStore(database);
    opened(store, database);
  });
  afterAll(async () => {
    await store?.close();
    await database?.cleanup();
  });
}
