/**
 * Pipedream Connect projects (`proj_…`): an account's containers for end users. Each project has
 * two environments, development and production, whose end users are kept apart. Deleting a
 * project deletes its end users with everything they own (triggers are deactivated first).
 */
// Kysely here, not in the store: reads and writes only its own tables (projects, their end users).
import type { ConnectProjectsTable, Executor } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError } from "../errors.js";
import { newId } from "../ids.js";
import { ownedRow } from "../owned-rows.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import { optionalText, requiredText } from "../validation.js";
import { removeEndUser } from "./end-users.js";

const MAX_NAME_LENGTH = 200;
const PROJECTS = { table: "connect_projects", name: "project", prefix: "proj" } as const;

export interface Project {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly appName: string | null;
  readonly supportEmail: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ProjectInput {
  readonly name?: unknown;
  readonly app_name?: unknown;
  readonly support_email?: unknown;
}

function toProject(row: ConnectProjectsTable): Project {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    appName: row.app_name,
    supportEmail: row.support_email,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function createProject(db: Executor, accountId: string, input: ProjectInput): Promise<Project> {
  const name = requiredText(input.name, "name", MAX_NAME_LENGTH);
  const appName = optionalText(input.app_name, "app_name", MAX_NAME_LENGTH)?.trim() || null;
  const supportEmail = optionalText(input.support_email, "support_email", 320)?.trim() || null;
  if (supportEmail !== null && !/^[^\s@]+@[^\s@]+$/.test(supportEmail)) {
    throw new InvalidInputError("support_email must be an email address, such as help@example.com");
  }
  const now = Date.now();
  const row: ConnectProjectsTable = {
    id: newId("proj"),
    account_id: accountId,
    name,
    app_name: appName,
    support_email: supportEmail,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto("connect_projects").values(row).execute();
  return toProject(row);
}

/** The account's project; an unknown id and another account's are both not found. */
export async function getProject(db: Executor, accountId: string, id: string): Promise<Project> {
  return toProject(await ownedRow(db, PROJECTS, accountId, id));
}

export function listProjects(
  db: Executor,
  accountId: string,
  request: PageRequest & { q?: string },
): Promise<Page<Project>> {
  let owned = db.selectFrom("connect_projects").selectAll().where("account_id", "=", accountId);
  const q = request.q?.trim();
  if (q) owned = owned.where("name", "like", `%${q.replace(/[%_\\]/g, "")}%`);
  return readQueryPage(request, owned, toProject);
}

/** Deletes the project, its end users and all they own (their triggers deactivated first). */
export async function deleteProject(context: CoreContext, accountId: string, id: string): Promise<string> {
  const project = await getProject(context.store.db, accountId, id);
  const endUsers = await context.store.db
    .selectFrom("connect_end_users")
    .select("account_id")
    .where("project_id", "=", project.id)
    .execute();
  for (const endUser of endUsers) await removeEndUser(context, endUser.account_id);
  await context.store.db.deleteFrom("connect_projects").where("id", "=", project.id).execute();
  return project.id;
}
