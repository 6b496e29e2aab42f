/**
 * An app prop's configured value is `{"authProvisionId": "apn_…"}` (Pipedream's shape) or, as
 * before, an inline object of `$auth` fields. References are checked at deploy, update and run
 * (the connected account must be the account's own, and of the prop's app) and resolved into
 * credentials only when an invocation is about to run, so the sandbox receives them for that
 * invocation alone.
 */
import type { ComponentDefinition } from "../../runtime/component-definition.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, SluiceError } from "../errors.js";
import { credentialsOf } from "./connected-accounts.js";
import { AuthUnavailableError, freshOAuthAuth } from "./oauth-refresh.js";

export { AuthUnavailableError };

export interface AuthRef {
  readonly authProvisionId: string;
}

export function isAuthRef(value: unknown): value is AuthRef {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Record<string, unknown>).authProvisionId === "string"
  );
}

function refsOf(definition: ComponentDefinition, values: Record<string, unknown>) {
  return definition.props.flatMap((prop) => {
    const value = values[prop.name];
    return prop.type === "app" && isAuthRef(value) ? [{ prop, ref: value }] : [];
  });
}

/** Checks every reference: the account's own connected account (404 otherwise), of the prop's app. */
export async function checkAuthRefs(
  context: CoreContext,
  accountId: string,
  definition: ComponentDefinition,
  values: Record<string, unknown>,
): Promise<void> {
  for (const { prop, ref } of refsOf(definition, values)) {
    const { account } = await credentialsOf(context, accountId, ref.authProvisionId);
    if (prop.app !== undefined && account.app !== prop.app) {
      throw new InvalidInputError(
        `prop '${prop.name}': connected account ${account.id} is for app '${account.app}', and this prop needs '${prop.app}'`,
        "invalid_prop",
      );
    }
  }
}

/**
 * The values with each reference replaced by the connected account's `$auth`; an OAuth account's
 * token is refreshed first when it expires within 60 s (see oauth-refresh.ts). Throws
 * AuthUnavailableError, naming the `apn_` id and the app, when one cannot be used.
 */
export async function resolveAuthRefs(
  context: CoreContext,
  accountId: string,
  definition: ComponentDefinition,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const refs = refsOf(definition, values);
  if (refs.length === 0) return values;
  const resolved = { ...values };
  for (const { prop, ref } of refs) {
    const id = ref.authProvisionId;
    let found: Awaited<ReturnType<typeof credentialsOf>>;
    try {
      found = await credentialsOf(context, accountId, id);
    } catch (error) {
      if (!(error instanceof SluiceError)) throw error;
      throw new AuthUnavailableError(
        "connected_account_unavailable",
        `prop '${prop.name}': connected account ${id} (app '${prop.app ?? "?"}') no longer exists; connect the app again and update the prop`,
      );
    }
    if (!found.account.healthy) {
      throw new AuthUnavailableError(
        "connected_account_unhealthy",
        `prop '${prop.name}': connected account ${id} (app '${found.account.app}') is unhealthy: ${found.account.error ?? "unknown error"}; reconnect it`,
      );
    }
    resolved[prop.name] =
      found.account.authType === "oauth"
        ? await freshOAuthAuth(context, prop.name, found.account, found.auth)
        : found.auth;
  }
  return resolved;
}
