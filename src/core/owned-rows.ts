/**
 * An account's row by id, the lookup behind every `get…` of a resource: an unknown id and
 * another account's are both NotFoundError, so ids cannot be probed across accounts.
 */
// Kysely here, not in the store: one read by id and account, the same for every owned table.
import type { Kysely, Selectable } from "kysely";
import type { Database, Executor } from "../store/schema.js";
import { NotFoundError } from "./errors.js";
import { type IdPrefix, looksLikeId } from "./ids.js";

/** The tables whose rows belong to an account: each row has an `id` and an `account_id`. */
export type OwnedTable = {
  [T in keyof Database]: Database[T] extends { id: string; account_id: string } ? T : never;
}[keyof Database];

/** The columns every owned table has, which is all the lookup below needs to know of it. */
type OwnedView = Kysely<Record<OwnedTable, { id: string; account_id: string }>>;

/** A kind of resource an account owns: its table, and its name in a not-found message. */
export interface OwnedResource<T extends OwnedTable> {
  readonly table: T;
  readonly name: string;
  /** When given, an id without this prefix is not found without a query. */
  readonly prefix?: IdPrefix;
}

/** The account's row of the resource with this id; NotFoundError for any other id. */
export async function ownedRow<T extends OwnedTable>(
  db: Executor,
  resource: OwnedResource<T>,
  accountId: string,
  id: string,
): Promise<Selectable<Database[T]>> {
  const row =
    resource.prefix === undefined || looksLikeId(id, resource.prefix)
      ? await (db as unknown as OwnedView)
          .selectFrom(resource.table as OwnedTable)
          .selectAll()
          .where("id", "=", id)
          .where("account_id", "=", accountId)
          .executeTakeFirst()
      : undefined;
  if (!row) throw new NotFoundError(resource.name, id);
  return row as unknown as Selectable<Database[T]>;
}
