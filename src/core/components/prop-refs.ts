/**
 * The values a runner sees for a component's configured props: a `data_store` prop names its `ds_`
 * store, an app prop given as `{authProvisionId}` carries its `$auth` (refreshed when due). Source
 * runs, actions and dynamic props (options, additionalProps) all resolve them here, in this order.
 */
import type { ComponentDefinition } from "../../runtime/component-definition.js";
import { resolveAuthRefs } from "../apps/auth-refs.js";
import type { CoreContext } from "../context.js";
import { resolveDataStoreRefs } from "../data-stores/data-store-props.js";

export async function resolvePropRefs(
  context: CoreContext,
  accountId: string,
  definition: ComponentDefinition,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const withStores = await resolveDataStoreRefs(context, accountId, definition, values);
  return resolveAuthRefs(context, accountId, definition, withStores);
}
