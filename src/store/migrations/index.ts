/** The migrations, in order. Each file is one step; a step that has shipped never changes the DDL it emits. (There is no 0004.) */
import type { Migration } from "kysely";
import * as initial from "./0001-initial.js";
import * as componentsAndSources from "./0002-components-and-sources.js";
import * as subscriptionsAndDeliveries from "./0003-subscriptions-and-deliveries.js";
import * as emitterCounts from "./0005-emitter-counts.js";
import * as publishedComponents from "./0006-published-components.js";
import * as workflows from "./0007-workflows.js";
import * as uiSessions from "./0010-ui-sessions.js";
import * as apps from "./0011-apps.js";
import * as dataStores from "./0012-data-stores.js";
import * as publicRegistry from "./0013-public-registry.js";
import * as oauthConnections from "./0014-oauth-connections.js";
import * as registryImports from "./0015-registry-imports.js";
import * as connect from "./0016-connect.js";
import * as connectOAuth from "./0017-connect-oauth.js";
import * as clusterLimits from "./0018-cluster-limits.js";
import * as jobsByGroup from "./0019-jobs-by-group.js";
import * as jobsGroupEstimate from "./0020-jobs-group-estimate.js";
import * as jobsLeasedOnly from "./0021-jobs-leased-only.js";
import * as workflowRunsFinished from "./0022-workflow-runs-finished.js";
import * as actionState from "./0023-action-state.js";
import * as runCheckpoints from "./0024-run-checkpoints.js";
import * as retryTimeouts from "./0025-retry-timeouts.js";
import * as runWaits from "./0026-run-waits.js";
import * as workflowReplays from "./0027-workflow-replays.js";

export const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-components-and-sources": componentsAndSources,
  "0003-subscriptions-and-deliveries": subscriptionsAndDeliveries,
  "0005-emitter-counts": emitterCounts,
  "0006-published-components": publishedComponents,
  "0007-workflows": workflows,
  "0010-ui-sessions": uiSessions,
  "0011-apps": apps,
  "0012-data-stores": dataStores,
  "0013-public-registry": publicRegistry,
  "0014-oauth-connections": oauthConnections,
  "0015-registry-imports": registryImports,
  "0016-connect": connect,
  "0017-connect-oauth": connectOAuth,
  "0018-cluster-limits": clusterLimits,
  "0019-jobs-by-group": jobsByGroup,
  "0020-jobs-group-estimate": jobsGroupEstimate,
  "0021-jobs-leased-only": jobsLeasedOnly,
  "0022-workflow-runs-finished": workflowRunsFinished,
  "0023-action-state": actionState,
  "0024-run-checkpoints": runCheckpoints,
  "0025-retry-timeouts": retryTimeouts,
  "0026-run-waits": runWaits,
  "0027-workflow-replays": workflowReplays,
};
