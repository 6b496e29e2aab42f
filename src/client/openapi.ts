/**
 * The REST API's wire types, generated from the OpenAPI document (GET /v1/openapi.json) by
 * openapi-typescript. Do not edit: run `npm run generate:client-types` after changing a route's
 * schema; test/rest/openapi-document.test.ts fails while this file is stale.
 */
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["checkHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the process and its database answer, and the node is not shutting down */
        get: operations["checkReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sse/dc/{id}/emits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stream a source's events (SSE) */
        get: operations["streamSourceEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sse/dc/{id}/observations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stream a source's log lines (SSE) */
        get: operations["streamSourceLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sse/p/{id}/emits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stream a workflow's events: $.send.emit, $.send.sse ($sse:<channel>) and $errors (SSE) */
        get: operations["streamWorkflowEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account (admin keys only); returns its first API key, once */
        post: operations["createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/actions/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run an action once: its return value, exports, summary, logs and sends */
        post: operations["runAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's active API keys (never the keys themselves) */
        get: operations["listApiKeys"];
        put?: never;
        /** Create another API key for the caller's account; the key is returned once */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key; from then on it is refused with 401 */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the apps this account sees: the server's and its own */
        get: operations["listApps"];
        put?: never;
        /** Register an app (or replace its registration) */
        post: operations["registerApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an app: registered, or an open keys app when nobody registered the slug */
        get: operations["getApp"];
        put?: never;
        post?: never;
        /** Remove an app's registration (scope=server: the server's, admin only) */
        delete: operations["deleteApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search components: the latest version of each key, in the account's registry, the public one, or both */
        get: operations["searchRegistryComponents"];
        put?: never;
        /** Save a component (compile it and describe its props), or take one by key: the account's own, else the public registry's (copied into the account) */
        post: operations["saveComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a saved component by sc_ id or by key (the newest saved under it) */
        get: operations["getSavedComponent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/configure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch one page of a prop's options (async options, propDefinition), run in the sandbox */
        post: operations["configureComponentProp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/props": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a component's additionalProps with the props configured so far; answers a dyp_ id */
        post: operations["reloadComponentProps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/components/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish a component under its key and version (a new version keeps the older ones) */
        post: operations["publishComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the connected accounts of an end user (external_user_id), or of every end user */
        get: operations["listConnectAccounts"];
        put?: never;
        /** Connect a keys app for the end user of a connect token (what the connect link page does); spends the token */
        post: operations["createConnectAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/accounts/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a connected account of the project's end users (credentials when asked, server-side) */
        get: operations["getConnectAccount"];
        put?: never;
        post?: never;
        /** Delete a connected account (triggers that use it fail from then on) */
        delete: operations["deleteConnectAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/accounts/oauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start connecting an OAuth app for the end user of a connect token (what the connect link page does): returns the provider's authorize URL */
        post: operations["startConnectOAuth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's actions (its account's published components and the public registry) */
        get: operations["listConnectActions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/actions/{component_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one of the project's actions by key, with its configurable_props */
        get: operations["getConnectAction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/actions/configure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch one page of a prop's remote options, run for the end user in the sandbox */
        post: operations["configureConnectActionProp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/actions/props": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a component's additionalProps for the end user; answers the props and a dyp_ id */
        post: operations["reloadConnectActionProps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/actions/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run an action for the end user; answers its exports, observations (os) and return value (ret) */
        post: operations["runConnectAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's components (its account's published components and the public registry) */
        get: operations["listConnectComponents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/components/{component_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one of the project's components by key, with its configurable_props */
        get: operations["getConnectComponent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/components/configure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch one page of a prop's remote options, run for the end user in the sandbox */
        post: operations["configureConnectComponentProp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/components/props": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a component's additionalProps for the end user; answers the props and a dyp_ id */
        post: operations["reloadConnectComponentProps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/deployed-triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the end user's deployed triggers, newest first */
        get: operations["listConnectDeployedTriggers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/deployed-triggers/{trigger_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one of the end user's deployed triggers */
        get: operations["getConnectDeployedTrigger"];
        /** Update a deployed trigger: active, name or configured_props */
        put: operations["updateConnectDeployedTrigger"];
        post?: never;
        /** Delete a deployed trigger and the webhooks made for it (a failing deactivate hook does not stop it) */
        delete: operations["deleteConnectDeployedTrigger"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/deployed-triggers/{trigger_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The deployed trigger's newest events (n, default 20), newest first */
        get: operations["listConnectDeployedTriggerEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/deployed-triggers/{trigger_id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The URLs the deployed trigger's events are delivered to */
        get: operations["listConnectDeployedTriggerWebhooks"];
        /** Set the URLs the deployed trigger's events are delivered to; a new URL's signing_key is in this answer only */
        put: operations["setConnectDeployedTriggerWebhooks"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a short-lived connect token for one end user's browser, and its connect link URL */
        post: operations["createConnectToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's triggers (its account's published components and the public registry) */
        get: operations["listConnectTriggers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/triggers/{component_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one of the project's triggers by key, with its configurable_props */
        get: operations["getConnectTrigger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/triggers/configure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch one page of a prop's remote options, run for the end user in the sandbox */
        post: operations["configureConnectTriggerProp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/triggers/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploy a trigger for the end user; with webhook_url its events are delivered there, signed */
        post: operations["deployConnectTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/triggers/props": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a component's additionalProps for the end user; answers the props and a dyp_ id */
        post: operations["reloadConnectTriggerProps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/users/{external_user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an end user with its connected accounts and deployed triggers */
        delete: operations["deleteConnectUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{project_id}/users/{external_user_id}/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List one end user's connected accounts */
        get: operations["listConnectUserAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the apps of the caller's account: registered ones and those its components use */
        get: operations["listConnectApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/apps/{app_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an app by name slug (an app nobody registered is an open keys app) */
        get: operations["getConnectApp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List this account's Connect projects, newest first */
        get: operations["listConnectProjects"];
        put?: never;
        /** Create a Connect project (proj_…) of this account */
        post: operations["createConnectProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/projects/{project_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a Connect project */
        get: operations["getConnectProject"];
        put?: never;
        post?: never;
        /** Delete a Connect project with its end users, their connected accounts and deployed triggers */
        delete: operations["deleteConnectProject"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/tokens/{ctok}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check a connect token (the connect page's first call); success false says why it cannot be used */
        get: operations["validateConnectToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connected_accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's connected accounts, newest first */
        get: operations["listConnectedAccounts"];
        put?: never;
        /** Connect an account of a keys app: its fields are sealed at rest, never returned (OAuth apps: POST /v1/connected_accounts/oauth) */
        post: operations["createConnectedAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connected_accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a connected account (never its credentials) */
        get: operations["getConnectedAccount"];
        put?: never;
        post?: never;
        /** Delete a connected account; refused (409) while a source or workflow uses it, unless force=true */
        delete: operations["deleteConnectedAccount"];
        options?: never;
        head?: never;
        /** Rename a connected account, or reconnect a keys account by replacing its fields (sealed at rest, never returned; it becomes healthy). OAuth accounts reconnect with POST /v1/connected_accounts/oauth and connected_account_id */
        patch: operations["updateConnectedAccount"];
        trace?: never;
    };
    "/v1/connected_accounts/oauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start connecting an account of an OAuth app: returns the provider's authorize URL to open */
        post: operations["startOAuthConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connected_accounts/oauth/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow an OAuth connection: pending, connected (with its apn_ id), failed or expired */
        get: operations["getOAuthConnection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connected_accounts/oauth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The OAuth callback (redirect_uri): exchanges the code, stores the tokens sealed, and shows a page that posts {type, authProvisionId} to its opener */
        get: operations["completeOAuthConnection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's data stores */
        get: operations["listDataStores"];
        put?: never;
        /** Create a data store */
        post: operations["createDataStore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a data store and its records */
        delete: operations["deleteDataStore"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores/{id}/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every live record of a data store (by ds_ id or name), by key */
        get: operations["listDataStoreRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data_stores/{id}/records/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One record */
        get: operations["getDataStoreRecord"];
        /** Write a record (any JSON value, at most 64 KB), with an optional ttl in seconds */
        put: operations["putDataStoreRecord"];
        post?: never;
        /** Delete a record */
        delete: operations["deleteDataStoreRecord"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with its attempts */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivered or failed delivery again now */
        post: operations["retryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth_clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's OAuth clients (never their secrets) */
        get: operations["listOAuthClients"];
        put?: never;
        /** Create an OAuth client of this account; its client_secret is shown only in this answer */
        post: operations["createOAuthClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth_clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an OAuth client: its secret and access tokens stop working at once */
        delete: operations["revokeOAuthClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange an OAuth client's id and secret for an hour's access token (client credentials) */
        post: operations["createOAuthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/published/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a published component: key (its latest version) or key@version, with every version */
        get: operations["getPublishedComponent"];
        put?: never;
        post?: never;
        /** Unpublish every version of a key, or one (key@version) */
        delete: operations["unpublishComponent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish a component in the server's public registry (key <app>-<kebab-name>, a greater semver version, a name and a description) */
        post: operations["publishRegistryComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/components/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a public component: key (its latest version) or key@version, with every version */
        get: operations["getRegistryComponent"];
        put?: never;
        post?: never;
        /** Unpublish every version of a public key, or one (key@version): its publisher or an admin */
        delete: operations["unpublishRegistryComponent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/components/{key}/deprecate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deprecate a public key or key@version (deprecated: false restores it): it runs where deployed, but is not offered for new deploys */
        post: operations["deprecateRegistryComponent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a Pipedream-layout package and wait for the whole import: publish each source and action, reporting each as published, skipped or failed
         * @description Holds the request open until every component is imported; for large packages use POST /v1/registry/imports, which answers at once.
         */
        post: operations["importRegistryPackage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's package imports, newest first */
        get: operations["listRegistryImports"];
        put?: never;
        /**
         * Start importing a Pipedream-layout package (npm:<spec>, fetched by the server, or a folder's files)
         * @description Checks the request and unpacks the package, then imports each source and action in the background: follow it with GET /v1/registry/imports/{id}. A bad registry, a public import by a non-admin, an npm spec that does not exist and a package with no components are refused here, before anything is published.
         */
        post: operations["startRegistryImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a package import: its status and each component imported so far */
        get: operations["getRegistryImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in to the web UI with an API key; sets the session cookie */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Sign out of the web UI: ends the session on the server and clears the cookie */
        delete: operations["deleteCurrentSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploy a source */
        post: operations["deploySource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a source (by dc_ id or name) */
        get: operations["getSource"];
        /** Update a source: code, props, name, active; the id is kept */
        put: operations["updateSource"];
        post?: never;
        /** Delete a source */
        delete: operations["deleteSource"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}/event_summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A source's events, newest first */
        get: operations["listSourceEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a source's events from start_id to end_id (both included; all without them) */
        delete: operations["deleteSourceEvents"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A source's log lines (console output, errors, lifecycle), newest first */
        get: operations["listSourceLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a source now */
        post: operations["runSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Subscribe a webhook to an emitter's events */
        post: operations["createSubscription"];
        /** Remove a subscription */
        delete: operations["deleteSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account of the API key */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's saved components, newest first (without their code) */
        get: operations["listSavedComponents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's published components, every version, newest first */
        get: operations["listPublishedComponents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's sources, newest first */
        get: operations["listSources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's subscriptions */
        get: operations["listSubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's webhooks, newest first */
        get: operations["listWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's workflows, newest first */
        get: operations["listWorkflows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a webhook */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook */
        get: operations["getWebhook"];
        /** Change a webhook: active (true re-enables it), name, description, url, rate_limit */
        put: operations["updateWebhook"];
        post?: never;
        /** Delete a webhook */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's deliveries, newest first: status, attempts, last status code, latency, error, next attempt */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resend every failed delivery of the webhook created since a time (epoch seconds or ISO 8601) */
        post: operations["recoverWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give the webhook a new signing secret; for 24 h deliveries carry both signatures */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow_runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a workflow run */
        get: operations["getWorkflowRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow_runs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a paused or suspended run */
        post: operations["cancelWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow_runs/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a workflow again with a past run's trigger event (queued), from the start or from a step */
        post: operations["replayWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflow_runs/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a paused or suspended run now; `data` becomes a suspended step's $resume_data body */
        post: operations["resumeWorkflowRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploy a workflow */
        post: operations["createWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a workflow */
        get: operations["getWorkflow"];
        /** Replace a workflow's document, or pause and resume it with { active } */
        put: operations["updateWorkflow"];
        post?: never;
        /** Delete a workflow, its runs and its events */
        delete: operations["deleteWorkflow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/event_summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow's events ($.send.emit, and $errors for failed runs), newest first */
        get: operations["listWorkflowEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/replays": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replay the runs a filter matches, a few at a time (or count them, with dry_run) */
        post: operations["replayWorkflowRuns"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/replays/{replay_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A bulk replay's progress: the runs it matched, queued, skipped, in flight and done */
        get: operations["getWorkflowReplay"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow's runs, newest first (only those of the statuses asked) */
        get: operations["listWorkflowRuns"];
        put?: never;
        /** Run a workflow now with an event of your choosing (queued) */
        post: operations["runWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    checkHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
        };
    };
    checkReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    streamSourceEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A text/event-stream of items in the REST shape, each with its id as the SSE id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    streamSourceLogs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A text/event-stream of items in the REST shape, each with its id as the SSE id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    streamWorkflowEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A text/event-stream of items in the REST shape, each with its id as the SSE id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            api_key: string;
                            id: string;
                            name: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    runAction: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the action's source code */
                    component_code?: string;
                    /** @description a saved component (sc_…) */
                    component_id?: string;
                    /** @description an http(s) URL to the code */
                    component_url?: string;
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… from POST /v1/components/props */
                    dynamic_props_id?: string;
                    filename?: string;
                    /** @description Pipedream Connect's name: a key, key@version or sc_ id */
                    id?: string;
                    /** @description a published key (its latest version), or key@version */
                    key?: string;
                    /** @description run({ steps }) receives it */
                    steps?: {
                        [key: string]: unknown;
                    };
                    timeout_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description sc_… */
                            component_id: string;
                            component_key: string | null;
                            component_version: string | null;
                            duration_ms: number;
                            exports: {
                                [key: string]: unknown;
                            };
                            failure: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit or load_error */
                                reason: string;
                                stack?: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            flow_exit: ({
                                reason: string | null;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            logs: ({
                                /** @description log, info, warn, error or debug */
                                level: string;
                                message: string;
                                /** @description epoch milliseconds */
                                ts: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            ok: boolean;
                            respond: ({
                                /** @description JSON when the action answered an object; text; or base64 (body_encoding) */
                                body: unknown;
                                /** @enum {string} */
                                body_encoding?: "base64";
                                headers: {
                                    [key: string]: string;
                                };
                                immediate: boolean;
                                status: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            /** @description what run() returned (JSON); null for nothing */
                            return_value: unknown;
                            sends: ({
                                /** @description what the action asked to send, credentials masked */
                                input: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "http" | "email" | "emit" | "sse" | "s3";
                                outcome: {
                                    error?: string;
                                    /** @description the SMTP server's id of an email */
                                    message_id?: string;
                                    ok: boolean;
                                    /** @description emit and sse: kept in the result (a workflow routes them) */
                                    recorded?: boolean;
                                    /** @description not attempted: the run failed */
                                    skipped?: boolean;
                                    /** @description the HTTP status of an http send */
                                    status?: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            summary: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at: number;
                            /** @description key_… */
                            id: string;
                            last_used_at: number | null;
                            name: string | null;
                            /** @description the key's first characters */
                            prefix: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            api_key: string;
                            created_at: number;
                            /** @description key_… */
                            id: string;
                            last_used_at: number | null;
                            name: string | null;
                            /** @description the key's first characters */
                            prefix: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            auth_type: "keys" | "oauth" | "none";
                            /** @description the fields of a keys app (an oauth app's custom fields); null for an app nobody registered: its connected accounts take any fields */
                            fields: {
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                secret: boolean;
                            }[] | null;
                            name: string;
                            name_slug: string;
                            /** @description the OAuth settings of an oauth app (never its client secret); null for other apps */
                            oauth: {
                                authorize_params: {
                                    [key: string]: string;
                                };
                                authorize_url: string;
                                client_id: string;
                                has_client_secret: boolean;
                                pkce: boolean;
                                /** @description the callback URL to register with the provider */
                                redirect_uri: string;
                                scope_separator: string;
                                scopes: string[];
                                /** @enum {string} */
                                token_auth_method: "client_secret_basic" | "client_secret_post";
                                token_url: string;
                                uid_field: string;
                                user_info_url: string | null;
                            } | null;
                            /** @enum {string} */
                            scope: "server" | "account" | "implicit";
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    registerApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    auth_type: "keys" | "oauth" | "none";
                    /** @description a keys app's fields (at least one); an oauth app's custom fields */
                    fields?: {
                        description?: string;
                        label?: string;
                        /** @description an identifier: letters, digits and _ */
                        name: string;
                        optional?: boolean;
                        /** @description masked in forms and never shown again */
                        secret?: boolean;
                    }[] | null;
                    /** @description default: the slug */
                    name?: string;
                    /** @description for auth_type oauth */
                    oauth?: {
                        /** @description extra query parameters of the authorize URL */
                        authorize_params?: {
                            [key: string]: string | number | boolean;
                        } | null;
                        authorize_url: string;
                        client_id: string;
                        /** @description omitted: keep the registered one; null: remove it (a public client, with PKCE) */
                        client_secret?: string | null;
                        /** @description default: true */
                        pkce?: boolean;
                        /** @description default: a space */
                        scope_separator?: string;
                        /** @description a list, or one string split at scope_separator */
                        scopes?: string[] | (string | null);
                        /**
                         * @description default: client_secret_basic
                         * @enum {string|null}
                         */
                        token_auth_method?: "client_secret_basic" | "client_secret_post" | null;
                        token_url: string;
                        /** @description the user info field that names the account; default sub */
                        uid_field?: string;
                        user_info_url?: string | null;
                    };
                    /**
                     * @description server: for every account (admin only); account: for this account
                     * @default account
                     * @enum {string}
                     */
                    scope?: "server" | "account";
                    /** @description the app's name slug, the `app` of an app prop */
                    slug: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            auth_type: "keys" | "oauth" | "none";
                            /** @description the fields of a keys app (an oauth app's custom fields); null for an app nobody registered: its connected accounts take any fields */
                            fields: {
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                secret: boolean;
                            }[] | null;
                            name: string;
                            name_slug: string;
                            /** @description the OAuth settings of an oauth app (never its client secret); null for other apps */
                            oauth: {
                                authorize_params: {
                                    [key: string]: string;
                                };
                                authorize_url: string;
                                client_id: string;
                                has_client_secret: boolean;
                                pkce: boolean;
                                /** @description the callback URL to register with the provider */
                                redirect_uri: string;
                                scope_separator: string;
                                scopes: string[];
                                /** @enum {string} */
                                token_auth_method: "client_secret_basic" | "client_secret_post";
                                token_url: string;
                                uid_field: string;
                                user_info_url: string | null;
                            } | null;
                            /** @enum {string} */
                            scope: "server" | "account" | "implicit";
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            auth_type: "keys" | "oauth" | "none";
                            /** @description the fields of a keys app (an oauth app's custom fields); null for an app nobody registered: its connected accounts take any fields */
                            fields: {
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                secret: boolean;
                            }[] | null;
                            name: string;
                            name_slug: string;
                            /** @description the OAuth settings of an oauth app (never its client secret); null for other apps */
                            oauth: {
                                authorize_params: {
                                    [key: string]: string;
                                };
                                authorize_url: string;
                                client_id: string;
                                has_client_secret: boolean;
                                pkce: boolean;
                                /** @description the callback URL to register with the provider */
                                redirect_uri: string;
                                scope_separator: string;
                                scopes: string[];
                                /** @enum {string} */
                                token_auth_method: "client_secret_basic" | "client_secret_post";
                                token_url: string;
                                uid_field: string;
                                user_info_url: string | null;
                            } | null;
                            /** @enum {string} */
                            scope: "server" | "account" | "implicit";
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteApp: {
        parameters: {
            query?: {
                scope?: "server" | "account";
            };
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            name_slug: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    searchRegistryComponents: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description an app slug */
                app?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
                /** @description words to find in the key, name or description */
                q?: string;
                registry?: "public" | "private" | "all";
                type?: "source" | "action";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            app: string | null;
                            deprecated: boolean;
                            description: string | null;
                            /** @description sc_… of the published code */
                            id: string;
                            key: string;
                            name: string;
                            /** @description epoch seconds */
                            published_at: number;
                            /** @enum {string} */
                            registry: "public" | "private";
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    saveComponent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the component's source code */
                    component_code?: string;
                    /** @description an http(s) URL to the code */
                    component_url?: string;
                    /** @description the file name, for TypeScript (.ts) and messages */
                    filename?: string;
                    /** @description instead of code: key or key@version, the account's own first, then the public registry */
                    key?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the component's source code */
                            code: string;
                            code_hash: string;
                            configurable_props: ({
                                /** @description an app prop's app name slug */
                                app?: string;
                                /** @description the value used when none is configured */
                                default?: unknown;
                                description?: string;
                                label?: string;
                                max?: number;
                                min?: number;
                                name: string;
                                optional?: boolean;
                                /** @description static options as given (values or {label, value}); absent when dynamic */
                                options?: unknown[];
                                reloadProps?: boolean;
                                /** @description options come from POST /v1/components/configure */
                                remoteOptions?: boolean;
                                secret?: boolean;
                                /** @description string, integer, boolean, app, string[], $.interface.http, … */
                                type: string;
                                useQuery?: boolean;
                                withLabel?: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description a source's dedupe: unique, greatest or last */
                            dedupe: string | null;
                            description: string | null;
                            /** @description the component has additionalProps: POST /v1/components/props answers its full props for a configuration */
                            has_additional_props?: boolean;
                            /** @description sc_… */
                            id: string;
                            key: string | null;
                            /** @description the npm packages the code imports, each at the version it was bundled with */
                            lock: {
                                [key: string]: string;
                            };
                            name: string;
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getSavedComponent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the component's source code */
                            code: string;
                            code_hash: string;
                            configurable_props: ({
                                /** @description an app prop's app name slug */
                                app?: string;
                                /** @description the value used when none is configured */
                                default?: unknown;
                                description?: string;
                                label?: string;
                                max?: number;
                                min?: number;
                                name: string;
                                optional?: boolean;
                                /** @description static options as given (values or {label, value}); absent when dynamic */
                                options?: unknown[];
                                reloadProps?: boolean;
                                /** @description options come from POST /v1/components/configure */
                                remoteOptions?: boolean;
                                secret?: boolean;
                                /** @description string, integer, boolean, app, string[], $.interface.http, … */
                                type: string;
                                useQuery?: boolean;
                                withLabel?: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description a source's dedupe: unique, greatest or last */
                            dedupe: string | null;
                            description: string | null;
                            /** @description the component has additionalProps: POST /v1/components/props answers its full props for a configuration */
                            has_additional_props?: boolean;
                            /** @description sc_… */
                            id: string;
                            key: string | null;
                            /** @description the npm packages the code imports, each at the version it was bundled with */
                            lock: {
                                [key: string]: string;
                            };
                            name: string;
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    configureComponentProp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the props configured so far; an app prop as {authProvisionId: apn_…} */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… from POST /v1/components/props */
                    dynamic_props_id?: string;
                    /** @description a component key, a saved component id (sc_…) or a source id (dc_…) */
                    id: string;
                    /** @description numeric pagination, from 0 */
                    page?: number;
                    /** @description the context of the previous page, for token pagination */
                    prev_context?: unknown;
                    prop_name: string;
                    /** @description the user's text, for a prop with useQuery */
                    query?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        context: unknown;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                        options: {
                            label: string;
                            value: unknown;
                        }[] | null;
                        stringOptions: string[] | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    reloadComponentProps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the props configured so far; an app prop as {authProvisionId: apn_…} */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… from POST /v1/components/props */
                    dynamic_props_id?: string;
                    /** @description a component key, a saved component id (sc_…) or a source id (dc_…) */
                    id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dynamicProps: {
                            configurableProps: {
                                [key: string]: unknown;
                            }[];
                            /** @description dyp_… */
                            id: string;
                        } | null;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    publishComponent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    component_code?: string;
                    /** @description a saved component (sc_…) */
                    component_id?: string;
                    component_url?: string;
                    filename?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            code_hash: string;
                            configurable_props: ({
                                /** @description an app prop's app name slug */
                                app?: string;
                                /** @description the value used when none is configured */
                                default?: unknown;
                                description?: string;
                                label?: string;
                                max?: number;
                                min?: number;
                                name: string;
                                optional?: boolean;
                                /** @description static options as given (values or {label, value}); absent when dynamic */
                                options?: unknown[];
                                reloadProps?: boolean;
                                /** @description options come from POST /v1/components/configure */
                                remoteOptions?: boolean;
                                secret?: boolean;
                                /** @description string, integer, boolean, app, string[], $.interface.http, … */
                                type: string;
                                useQuery?: boolean;
                                withLabel?: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description a source's dedupe: unique, greatest or last */
                            dedupe: string | null;
                            description: string | null;
                            /** @description the component has additionalProps: POST /v1/components/props answers its full props for a configuration */
                            has_additional_props?: boolean;
                            /** @description sc_… of the published code */
                            id: string;
                            key: string;
                            /** @description the npm packages the code imports, each at the version it was bundled with */
                            lock: {
                                [key: string]: string;
                            };
                            name: string;
                            /** @description epoch seconds */
                            published_at: number;
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectAccounts: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                app?: string;
                /** @description cursor: the page before this one */
                before?: string;
                /** @description your own id for the end user */
                external_user_id?: string;
                include_credentials?: boolean;
                limit?: number;
                oauth_app_id?: string;
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app: {
                                auth_type: string;
                                categories: string[];
                                /** @description JSON of the app's fields */
                                custom_fields_json: string;
                                description: string | null;
                                featured_weight: number;
                                img_src: string;
                                name: string;
                                name_slug: string;
                                scope_profiles: {
                                    [key: string]: unknown;
                                }[];
                            };
                            created_at: string | null;
                            /** @description only with include_credentials, for a server-side caller */
                            credentials: {
                                [key: string]: unknown;
                            };
                            dead: boolean;
                            error: string | null;
                            expires_at: string | null;
                            external_id: string;
                            healthy: boolean;
                            /** @description apn_… */
                            id: string;
                            last_refreshed_at: string | null;
                            name: string;
                            updated_at: string | null;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createConnectAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description apn_… to reconnect */
                    account_id?: string;
                    app_slug: string;
                    /** @description JSON of the app's fields */
                    cfmap_json?: string;
                    connect_token?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    name?: string;
                    oauth_app_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        app: {
                            auth_type: string;
                            categories: string[];
                            /** @description JSON of the app's fields */
                            custom_fields_json: string;
                            description: string | null;
                            featured_weight: number;
                            img_src: string;
                            name: string;
                            name_slug: string;
                            scope_profiles: {
                                [key: string]: unknown;
                            }[];
                        };
                        created_at: string | null;
                        /** @description only with include_credentials, for a server-side caller */
                        credentials: {
                            [key: string]: unknown;
                        };
                        dead: boolean;
                        error: string | null;
                        expires_at: string | null;
                        external_id: string;
                        healthy: boolean;
                        /** @description apn_… */
                        id: string;
                        last_refreshed_at: string | null;
                        name: string;
                        updated_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectAccount: {
        parameters: {
            query?: {
                include_credentials?: boolean;
            };
            header?: never;
            path: {
                account_id: string;
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        app: {
                            auth_type: string;
                            categories: string[];
                            /** @description JSON of the app's fields */
                            custom_fields_json: string;
                            description: string | null;
                            featured_weight: number;
                            img_src: string;
                            name: string;
                            name_slug: string;
                            scope_profiles: {
                                [key: string]: unknown;
                            }[];
                        };
                        created_at: string | null;
                        /** @description only with include_credentials, for a server-side caller */
                        credentials: {
                            [key: string]: unknown;
                        };
                        dead: boolean;
                        error: string | null;
                        expires_at: string | null;
                        external_id: string;
                        healthy: boolean;
                        /** @description apn_… */
                        id: string;
                        last_refreshed_at: string | null;
                        name: string;
                        updated_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteConnectAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    startConnectOAuth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description apn_… to reconnect */
                    account_id?: string;
                    app_slug: string;
                    /** @description JSON of the app's custom fields, beside its tokens */
                    cfmap_json?: string;
                    connect_token?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description open it in a popup from the connect link page; it works once, until expires_at */
                        authorize_url: string;
                        /** @description ISO 8601; never after the connect token's */
                        expires_at: string;
                        /** @description Sluice's callback: its page posts the result to the origin that started the flow */
                        redirect_uri: string;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectActions: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                app?: string;
                /** @description cursor: the page before this one */
                before?: string;
                limit?: number;
                q?: string;
                registry?: "public" | "private" | "all";
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            component_type: "trigger" | "action";
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            description: string | null;
                            key: string;
                            name: string;
                            version: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectAction: {
        parameters: {
            query?: {
                version?: string;
            };
            header?: never;
            path: {
                component_id: string;
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            component_type: "trigger" | "action";
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            description: string | null;
                            key: string;
                            name: string;
                            version: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    configureConnectActionProp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    blocking?: boolean;
                    /** @description the props configured so far */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… */
                    dynamic_props_id?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the component's key */
                    id: string;
                    page?: number;
                    prev_context?: {
                        [key: string]: unknown;
                    };
                    prop_name: string;
                    query?: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        context: {
                            [key: string]: unknown;
                        } | null;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                        options: {
                            [key: string]: unknown;
                        }[] | null;
                        stringOptions: string[] | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    reloadConnectActionProps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    blocking?: boolean;
                    /** @description the props configured so far */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… */
                    dynamic_props_id?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the component's key */
                    id: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dynamicProps: {
                            configurableProps: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description dyp_… */
                            id: string;
                        } | null;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    runConnectAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    dynamic_props_id?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the action's key */
                    id: string;
                    stash_id?: unknown;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        exports: {
                            [key: string]: unknown;
                        };
                        os: {
                            [key: string]: unknown;
                        }[];
                        ret: unknown;
                        stash_id: string | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectComponents: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                app?: string;
                /** @description cursor: the page before this one */
                before?: string;
                component_type?: "trigger" | "action";
                limit?: number;
                q?: string;
                registry?: "public" | "private" | "all";
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            component_type: "trigger" | "action";
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            description: string | null;
                            key: string;
                            name: string;
                            version: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectComponent: {
        parameters: {
            query?: {
                version?: string;
            };
            header?: never;
            path: {
                component_id: string;
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            component_type: "trigger" | "action";
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            description: string | null;
                            key: string;
                            name: string;
                            version: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    configureConnectComponentProp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    blocking?: boolean;
                    /** @description the props configured so far */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… */
                    dynamic_props_id?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the component's key */
                    id: string;
                    page?: number;
                    prev_context?: {
                        [key: string]: unknown;
                    };
                    prop_name: string;
                    query?: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        context: {
                            [key: string]: unknown;
                        } | null;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                        options: {
                            [key: string]: unknown;
                        }[] | null;
                        stringOptions: string[] | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    reloadConnectComponentProps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    blocking?: boolean;
                    /** @description the props configured so far */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… */
                    dynamic_props_id?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the component's key */
                    id: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dynamicProps: {
                            configurableProps: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description dyp_… */
                            id: string;
                        } | null;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectDeployedTriggers: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                /** @description cursor: the page before this one */
                before?: string;
                emitter_type?: "source";
                /** @description your own id for the end user */
                external_user_id?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch milliseconds */
                            created_at: number;
                            emit_on_deploy: boolean;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            /** @enum {string} */
                            type: "DeployedComponent";
                            /** @description epoch milliseconds */
                            updated_at: number;
                            /** @description the whsec_ secret that signs deliveries to webhook_url; in the deploy's answer only */
                            webhook_signing_key: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectDeployedTrigger: {
        parameters: {
            query?: {
                /** @description your own id for the end user */
                external_user_id?: string;
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch milliseconds */
                            created_at: number;
                            emit_on_deploy: boolean;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            /** @enum {string} */
                            type: "DeployedComponent";
                            /** @description epoch milliseconds */
                            updated_at: number;
                            /** @description the whsec_ secret that signs deliveries to webhook_url; in the deploy's answer only */
                            webhook_signing_key: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    updateConnectDeployedTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    emit_on_deploy?: boolean;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch milliseconds */
                            created_at: number;
                            emit_on_deploy: boolean;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            /** @enum {string} */
                            type: "DeployedComponent";
                            /** @description epoch milliseconds */
                            updated_at: number;
                            /** @description the whsec_ secret that signs deliveries to webhook_url; in the deploy's answer only */
                            webhook_signing_key: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteConnectDeployedTrigger: {
        parameters: {
            query?: {
                /** @description your own id for the end user */
                external_user_id?: string;
                ignore_hook_errors?: boolean;
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectDeployedTriggerEvents: {
        parameters: {
            query?: {
                /** @description your own id for the end user */
                external_user_id?: string;
                n?: number;
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            e: unknown;
                            id: string;
                            k: string;
                            sum: string;
                            /** @description epoch milliseconds */
                            ts: number;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectDeployedTriggerWebhooks: {
        parameters: {
            query?: {
                /** @description your own id for the end user */
                external_user_id?: string;
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook_urls: string[];
                        webhooks: {
                            id: string;
                            signing_key: string;
                            signing_key_set: boolean;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    setConnectDeployedTriggerWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    webhook_urls: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook_urls: string[];
                        webhooks: {
                            id: string;
                            signing_key: string;
                            signing_key_set: boolean;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createConnectToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    allow_progressive_scopes?: boolean;
                    allowed_origins?: string[];
                    error_redirect_uri?: string;
                    /** @description seconds; default 14400 */
                    expires_in?: number;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    scope?: string;
                    success_redirect_uri?: string;
                    webhook_uri?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connect_link_url: string;
                        /** @description ISO 8601 */
                        expires_at: string;
                        /** @description ctok_… */
                        token: string;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectTriggers: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                app?: string;
                /** @description cursor: the page before this one */
                before?: string;
                limit?: number;
                q?: string;
                registry?: "public" | "private" | "all";
            };
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            component_type: "trigger" | "action";
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            description: string | null;
                            key: string;
                            name: string;
                            version: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectTrigger: {
        parameters: {
            query?: {
                version?: string;
            };
            header?: never;
            path: {
                component_id: string;
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            component_type: "trigger" | "action";
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            description: string | null;
                            key: string;
                            name: string;
                            version: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    configureConnectTriggerProp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    blocking?: boolean;
                    /** @description the props configured so far */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… */
                    dynamic_props_id?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the component's key */
                    id: string;
                    page?: number;
                    prev_context?: {
                        [key: string]: unknown;
                    };
                    prop_name: string;
                    query?: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        context: {
                            [key: string]: unknown;
                        } | null;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                        options: {
                            [key: string]: unknown;
                        }[] | null;
                        stringOptions: string[] | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deployConnectTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    dynamic_props_id?: string;
                    emit_on_deploy?: boolean;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the trigger's key */
                    id: string;
                    version?: string;
                    webhook_url?: string;
                    workflow_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            configurable_props: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch milliseconds */
                            created_at: number;
                            emit_on_deploy: boolean;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            /** @enum {string} */
                            type: "DeployedComponent";
                            /** @description epoch milliseconds */
                            updated_at: number;
                            /** @description the whsec_ secret that signs deliveries to webhook_url; in the deploy's answer only */
                            webhook_signing_key: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    reloadConnectTriggerProps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    blocking?: boolean;
                    /** @description the props configured so far */
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… */
                    dynamic_props_id?: string;
                    /** @description your own id for the end user */
                    external_user_id?: string;
                    /** @description the component's key */
                    id: string;
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dynamicProps: {
                            configurableProps: ({
                                description: string;
                                label: string;
                                name: string;
                                optional: boolean;
                                reloadProps: boolean;
                                remoteOptions: boolean;
                                type: string;
                                useQuery: boolean;
                                withLabel: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description dyp_… */
                            id: string;
                        } | null;
                        errors: string[];
                        observations: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteConnectUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                external_user_id: string;
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectUserAccounts: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                app?: string;
                /** @description cursor: the page before this one */
                before?: string;
                /** @description your own id for the end user */
                external_user_id?: string;
                include_credentials?: boolean;
                limit?: number;
                oauth_app_id?: string;
            };
            header?: never;
            path: {
                external_user_id: string;
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app: {
                                auth_type: string;
                                categories: string[];
                                /** @description JSON of the app's fields */
                                custom_fields_json: string;
                                description: string | null;
                                featured_weight: number;
                                img_src: string;
                                name: string;
                                name_slug: string;
                                scope_profiles: {
                                    [key: string]: unknown;
                                }[];
                            };
                            created_at: string | null;
                            /** @description only with include_credentials, for a server-side caller */
                            credentials: {
                                [key: string]: unknown;
                            };
                            dead: boolean;
                            error: string | null;
                            expires_at: string | null;
                            external_id: string;
                            healthy: boolean;
                            /** @description apn_… */
                            id: string;
                            last_refreshed_at: string | null;
                            name: string;
                            updated_at: string | null;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectApps: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                /** @description cursor: the page before this one */
                before?: string;
                category_ids?: unknown;
                has_actions?: boolean;
                has_components?: boolean;
                has_triggers?: boolean;
                limit?: number;
                q?: string;
                sort_direction?: "asc" | "desc";
                sort_key?: "name" | "name_slug" | "featured_weight";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            auth_type: string;
                            categories: string[];
                            /** @description JSON of the app's fields */
                            custom_fields_json: string;
                            description: string | null;
                            featured_weight: number;
                            img_src: string;
                            name: string;
                            name_slug: string;
                            scope_profiles: {
                                [key: string]: unknown;
                            }[];
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                app_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            auth_type: string;
                            categories: string[];
                            /** @description JSON of the app's fields */
                            custom_fields_json: string;
                            description: string | null;
                            featured_weight: number;
                            img_src: string;
                            name: string;
                            name_slug: string;
                            scope_profiles: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectProjects: {
        parameters: {
            query?: {
                /** @description cursor: the page after this one */
                after?: string;
                /** @description cursor: the page before this one */
                before?: string;
                limit?: number;
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app_name: string | null;
                            created_at: string;
                            /** @description proj_… */
                            id: string;
                            name: string;
                            support_email: string | null;
                            updated_at: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createConnectProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    app_name?: string;
                    name: string;
                    support_email?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        app_name: string | null;
                        created_at: string;
                        /** @description proj_… */
                        id: string;
                        name: string;
                        support_email: string | null;
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        app_name: string | null;
                        created_at: string;
                        /** @description proj_… */
                        id: string;
                        name: string;
                        support_email: string | null;
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteConnectProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description proj_… */
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    validateConnectToken: {
        parameters: {
            query?: {
                account_id?: string;
                app_id?: string;
                oauth_app_id?: string;
            };
            header?: never;
            path: {
                ctok: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        app: {
                            auth_type: string;
                            categories: string[];
                            /** @description JSON of the app's fields */
                            custom_fields_json: string;
                            description: string | null;
                            featured_weight: number;
                            img_src: string;
                            name: string;
                            name_slug: string;
                            scope_profiles: {
                                [key: string]: unknown;
                            }[];
                        };
                        error: string;
                        error_redirect_uri: string | null;
                        expires_at: string;
                        external_user_id: string;
                        project_app_name: string | null;
                        project_environment: string;
                        project_id: string;
                        project_support_email: string | null;
                        success: boolean;
                        success_redirect_uri: string | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listConnectedAccounts: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                app?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the app's name slug */
                            app: string;
                            auth_type: string;
                            created_at: string;
                            dead: boolean;
                            error: string | null;
                            expires_at: string | null;
                            healthy: boolean;
                            /** @description apn_… */
                            id: string;
                            last_refreshed_at: string | null;
                            name: string;
                            updated_at: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createConnectedAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the app's name slug */
                    app: string;
                    /** @description the app's $auth fields */
                    fields?: {
                        [key: string]: unknown;
                    };
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the app's name slug */
                            app: string;
                            auth_type: string;
                            created_at: string;
                            dead: boolean;
                            error: string | null;
                            expires_at: string | null;
                            healthy: boolean;
                            /** @description apn_… */
                            id: string;
                            last_refreshed_at: string | null;
                            name: string;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getConnectedAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the app's name slug */
                            app: string;
                            auth_type: string;
                            created_at: string;
                            dead: boolean;
                            error: string | null;
                            expires_at: string | null;
                            healthy: boolean;
                            /** @description apn_… */
                            id: string;
                            last_refreshed_at: string | null;
                            name: string;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteConnectedAccount: {
        parameters: {
            query?: {
                force?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    updateConnectedAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the app's $auth fields, checked as on create; they replace the stored ones entirely */
                    fields?: {
                        [key: string]: unknown;
                    };
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the app's name slug */
                            app: string;
                            auth_type: string;
                            created_at: string;
                            dead: boolean;
                            error: string | null;
                            expires_at: string | null;
                            healthy: boolean;
                            /** @description apn_… */
                            id: string;
                            last_refreshed_at: string | null;
                            name: string;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    startOAuthConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the OAuth app's name slug */
                    app: string;
                    /** @description reconnect this connected account (apn_…) instead of creating one */
                    connected_account_id?: string;
                    /** @description the app's custom fields, beside its tokens */
                    fields?: {
                        [key: string]: unknown;
                    };
                    /** @description a name for the connected account */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app: string;
                            /** @description open it in a browser; it works once, until expires_at */
                            authorize_url: string;
                            /** @description the apn_ id, once connected (Pipedream's authProvisionId) */
                            connected_account_id: string | null;
                            created_at: string;
                            error: string | null;
                            /** @description when the authorize URL stops working */
                            expires_at: string;
                            /** @description oac_… */
                            id: string;
                            /** @description the callback URL the provider must have registered for the client */
                            redirect_uri: string;
                            /** @enum {string} */
                            status: "pending" | "connected" | "failed" | "expired";
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getOAuthConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app: string;
                            /** @description the apn_ id, once connected (Pipedream's authProvisionId) */
                            connected_account_id: string | null;
                            created_at: string;
                            error: string | null;
                            /** @description when the authorize URL stops working */
                            expires_at: string;
                            /** @description oac_… */
                            id: string;
                            /** @enum {string} */
                            status: "pending" | "connected" | "failed" | "expired";
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    completeOAuthConnection: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                error_description?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connected: the page posts {type: 'success', authProvisionId} to its opener */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app: string;
                            connected_account_id: string;
                            id: string;
                        };
                    };
                    "text/html": string;
                };
            };
            /** @description A bad, used or expired state, or the provider refused: the page posts {type: 'error', error: {code, message}} */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                    "text/html": string;
                };
            };
            /** @description The provider's token or user-info URL failed; nothing was stored */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                    "text/html": string;
                };
            };
        };
    };
    listDataStores: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at: number;
                            /** @description ds_… */
                            id: string;
                            name: string;
                            record_count: number;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createDataStore: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at: number;
                            /** @description ds_… */
                            id: string;
                            name: string;
                            record_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteDataStore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listDataStoreRecords: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description epoch seconds; null: never */
                            expires_at: number | null;
                            key: string;
                            value: unknown;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getDataStoreRecord: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description epoch seconds; null: never */
                            expires_at: number | null;
                            key: string;
                            value: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    putDataStoreRecord: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ttl?: number;
                    value: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description epoch seconds; null: never */
                            expires_at: number | null;
                            key: string;
                            value: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteDataStoreRecord: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            key: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempt_log: {
                                /** @description epoch seconds */
                                at: number;
                                attempt: number;
                                error: string | null;
                                latency_ms: number | null;
                                /** @description the start of the receiver's answer (at most 1 KB) */
                                response_body: string | null;
                                /** @description null when no HTTP answer came */
                                status_code: number | null;
                            }[];
                            attempts: number;
                            channel: string | null;
                            /** @description epoch seconds */
                            created_at: number;
                            emitter_id: string;
                            event_id: string;
                            /** @description dlv_… */
                            id: string;
                            last_error: string | null;
                            last_latency_ms: number | null;
                            last_status_code: number | null;
                            /** @description epoch seconds of the next automatic attempt */
                            next_attempt_at: number | null;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            /** @description epoch seconds */
                            updated_at: number;
                            webhook_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    retryDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            channel: string | null;
                            /** @description epoch seconds */
                            created_at: number;
                            emitter_id: string;
                            event_id: string;
                            /** @description dlv_… */
                            id: string;
                            last_error: string | null;
                            last_latency_ms: number | null;
                            last_status_code: number | null;
                            /** @description epoch seconds of the next automatic attempt */
                            next_attempt_at: number | null;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            /** @description epoch seconds */
                            updated_at: number;
                            webhook_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listOAuthClients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            client_id: string;
                            created_at: string;
                            /** @description ocl_…, the client_id */
                            id: string;
                            last_used_at: string | null;
                            name: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            client_id: string;
                            client_secret: string;
                            created_at: string;
                            /** @description ocl_…, the client_id */
                            id: string;
                            last_used_at: string | null;
                            name: string | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    revokeOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createOAuthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    client_id: string;
                    client_secret: string;
                    /** @enum {string} */
                    grant_type?: "client_credentials";
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        /** @description seconds */
                        expires_in: number;
                        scope: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getPublishedComponent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a key, or key@version */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            code: string;
                            code_hash: string;
                            configurable_props: ({
                                /** @description an app prop's app name slug */
                                app?: string;
                                /** @description the value used when none is configured */
                                default?: unknown;
                                description?: string;
                                label?: string;
                                max?: number;
                                min?: number;
                                name: string;
                                optional?: boolean;
                                /** @description static options as given (values or {label, value}); absent when dynamic */
                                options?: unknown[];
                                reloadProps?: boolean;
                                /** @description options come from POST /v1/components/configure */
                                remoteOptions?: boolean;
                                secret?: boolean;
                                /** @description string, integer, boolean, app, string[], $.interface.http, … */
                                type: string;
                                useQuery?: boolean;
                                withLabel?: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description a source's dedupe: unique, greatest or last */
                            dedupe: string | null;
                            description: string | null;
                            /** @description the component has additionalProps: POST /v1/components/props answers its full props for a configuration */
                            has_additional_props?: boolean;
                            /** @description sc_… of the published code */
                            id: string;
                            key: string;
                            /** @description the npm packages the code imports, each at the version it was bundled with */
                            lock: {
                                [key: string]: string;
                            };
                            name: string;
                            /** @description epoch seconds */
                            published_at: number;
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string;
                            versions: {
                                /** @description sc_… */
                                component_id: string;
                                /** @description epoch seconds */
                                published_at: number;
                                version: string;
                            }[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    unpublishComponent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a key, or key@version */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            key: string;
                            versions: string[];
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    publishRegistryComponent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    component_code?: string;
                    /** @description a saved component (sc_…) */
                    component_id?: string;
                    component_url?: string;
                    filename?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app: string | null;
                            deprecated: boolean;
                            description: string | null;
                            /** @description sc_… of the published code */
                            id: string;
                            key: string;
                            name: string;
                            /** @description epoch seconds */
                            published_at: number;
                            /** @enum {string} */
                            registry: "public" | "private";
                            /** @enum {string} */
                            status: "published" | "unchanged";
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getRegistryComponent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a public key, or key@version */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            app: string | null;
                            deprecated: boolean;
                            description: string | null;
                            /** @description sc_… of the published code */
                            id: string;
                            key: string;
                            name: string;
                            /** @description epoch seconds */
                            published_at: number;
                            /** @enum {string} */
                            registry: "public" | "private";
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string;
                            versions: ({
                                app: string | null;
                                deprecated: boolean;
                                description: string | null;
                                /** @description sc_… of the published code */
                                id: string;
                                key: string;
                                name: string;
                                /** @description epoch seconds */
                                published_at: number;
                                /** @enum {string} */
                                registry: "public" | "private";
                                /** @enum {string} */
                                type: "source" | "action";
                                version: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    unpublishRegistryComponent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a public key, or key@version */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            key: string;
                            versions: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deprecateRegistryComponent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a public key, or key@version */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default true */
                    deprecated?: boolean;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            key: string;
                            versions: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    importRegistryPackage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a folder's files: relative path → text */
                    files?: {
                        [key: string]: string;
                    };
                    /** @description npm:<package>@<version> */
                    npm?: string;
                    /**
                     * @default private
                     * @enum {string}
                     */
                    registry?: "public" | "private";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            components: {
                                /** @description the component's file in the package */
                                file: string;
                                key: string | null;
                                /** @description why it failed */
                                reason: string;
                                /** @enum {string} */
                                status: "published" | "skipped" | "failed";
                                version: string | null;
                            }[];
                            registry: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listRegistryImports: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description those imported so far, in order */
                            components: {
                                /** @description the component's file in the package */
                                file: string;
                                key: string | null;
                                /** @description why it failed */
                                reason: string;
                                /** @enum {string} */
                                status: "published" | "skipped" | "failed";
                                version: string | null;
                            }[];
                            created_at: number;
                            /** @description why the import stopped before its end */
                            error: string | null;
                            finished_at: number | null;
                            /** @description imp_… */
                            id: string;
                            /** @enum {string} */
                            registry: "public" | "private";
                            /** @description npm:<spec>, or files for a folder sent by the client */
                            source: string;
                            /** @enum {string} */
                            status: "running" | "succeeded" | "failed";
                            /** @description how many components the package has */
                            total: number;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    startRegistryImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a folder's files: relative path → text */
                    files?: {
                        [key: string]: string;
                    };
                    /** @description npm:<package>@<version> */
                    npm?: string;
                    /**
                     * @default private
                     * @enum {string}
                     */
                    registry?: "public" | "private";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description those imported so far, in order */
                            components: {
                                /** @description the component's file in the package */
                                file: string;
                                key: string | null;
                                /** @description why it failed */
                                reason: string;
                                /** @enum {string} */
                                status: "published" | "skipped" | "failed";
                                version: string | null;
                            }[];
                            created_at: number;
                            /** @description why the import stopped before its end */
                            error: string | null;
                            finished_at: number | null;
                            /** @description imp_… */
                            id: string;
                            /** @enum {string} */
                            registry: "public" | "private";
                            /** @description npm:<spec>, or files for a folder sent by the client */
                            source: string;
                            /** @enum {string} */
                            status: "running" | "succeeded" | "failed";
                            /** @description how many components the package has */
                            total: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getRegistryImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description those imported so far, in order */
                            components: {
                                /** @description the component's file in the package */
                                file: string;
                                key: string | null;
                                /** @description why it failed */
                                reason: string;
                                /** @enum {string} */
                                status: "published" | "skipped" | "failed";
                                version: string | null;
                            }[];
                            created_at: number;
                            /** @description why the import stopped before its end */
                            error: string | null;
                            finished_at: number | null;
                            /** @description imp_… */
                            id: string;
                            /** @enum {string} */
                            registry: "public" | "private";
                            /** @description npm:<spec>, or files for a folder sent by the client */
                            source: string;
                            /** @enum {string} */
                            status: "running" | "succeeded" | "failed";
                            /** @description how many components the package has */
                            total: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    api_key: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description u_… */
                            id: string;
                            is_admin: boolean;
                            name: string;
                            username: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteCurrentSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deploySource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    component_code?: string;
                    component_id?: string;
                    component_url?: string;
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… from POST /v1/components/props */
                    dynamic_props_id?: string;
                    filename?: string;
                    key?: string;
                    max_events?: number;
                    name?: string;
                    timeout_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            /** @description the component's version, if it has one */
                            component_version: string | null;
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch seconds */
                            created_at: number;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            /** @description epoch seconds of the newest event; null before one */
                            last_event_at: number | null;
                            max_events: number;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            timeout_seconds: number;
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            /** @description the component's version, if it has one */
                            component_version: string | null;
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch seconds */
                            created_at: number;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            /** @description epoch seconds of the newest event; null before one */
                            last_event_at: number | null;
                            max_events: number;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            timeout_seconds: number;
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    updateSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    component_code?: string;
                    component_id?: string;
                    component_url?: string;
                    configured_props?: {
                        [key: string]: unknown;
                    };
                    /** @description dyp_… from POST /v1/components/props */
                    dynamic_props_id?: string;
                    filename?: string;
                    key?: string;
                    max_events?: number;
                    name?: string;
                    timeout_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            /** @description the component's version, if it has one */
                            component_version: string | null;
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch seconds */
                            created_at: number;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            /** @description epoch seconds of the newest event; null before one */
                            last_event_at: number | null;
                            max_events: number;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            timeout_seconds: number;
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listSourceEvents: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                /** @description only events emitted on this channel */
                event_name?: string;
                /** @description event: include every event in full */
                expand?: "event";
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            /** @description the event; left out when larger than 1 KB, unless expand=event */
                            event?: unknown;
                            /** @description true when event was left out for its size */
                            event_truncated?: boolean;
                            /** @description <ms>-<seq> */
                            id: string;
                            indexed_at_ms: number;
                            metadata: {
                                /** @description the event's id */
                                emit_id: string;
                                /** @description the source (dc_…) or workflow (p_…) */
                                emitter_id: string;
                                /** @description the id the component gave it (dedupe) */
                                id: string | null;
                                /** @description the channel it was emitted on; empty for the default */
                                name: string;
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteSourceEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    end_id?: string;
                    start_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listSourceLogs: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            /** @description <ms>-<seq> */
                            id: string;
                            invocation_id: string;
                            level: string;
                            message: string;
                            /** @description epoch milliseconds */
                            ts: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    runSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            duration_ms: number;
                            /** @description the ids of the events it emitted */
                            events: string[];
                            failure: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit or load_error */
                                reason: string;
                                stack?: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            invocation_id: string;
                            logs: ({
                                /** @description log, info, warn, error or debug */
                                level: string;
                                message: string;
                                /** @description epoch milliseconds */
                                ts: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            ok: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the source (dc_…) */
                    emitter_id?: string;
                    /** @description only this channel ($default: the default channel); all when absent */
                    event_name?: string;
                    /** @description the webhook (wh_…) */
                    listener_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at: number;
                            emitter_id: string;
                            /** @description the channel; null for every channel */
                            event_name: string | null;
                            /** @description sub_… */
                            id: string;
                            listener_id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the source (dc_…) */
                    emitter_id?: string;
                    /** @description only this channel ($default: the default channel); all when absent */
                    event_name?: string;
                    /** @description the webhook (wh_…) */
                    listener_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at: number;
                            emitter_id: string;
                            /** @description the channel; null for every channel */
                            event_name: string | null;
                            /** @description sub_… */
                            id: string;
                            listener_id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description u_… */
                            id: string;
                            is_admin: boolean;
                            name: string;
                            username: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listSavedComponents: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            code_hash: string;
                            configurable_props: ({
                                /** @description an app prop's app name slug */
                                app?: string;
                                /** @description the value used when none is configured */
                                default?: unknown;
                                description?: string;
                                label?: string;
                                max?: number;
                                min?: number;
                                name: string;
                                optional?: boolean;
                                /** @description static options as given (values or {label, value}); absent when dynamic */
                                options?: unknown[];
                                reloadProps?: boolean;
                                /** @description options come from POST /v1/components/configure */
                                remoteOptions?: boolean;
                                secret?: boolean;
                                /** @description string, integer, boolean, app, string[], $.interface.http, … */
                                type: string;
                                useQuery?: boolean;
                                withLabel?: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description a source's dedupe: unique, greatest or last */
                            dedupe: string | null;
                            description: string | null;
                            /** @description the component has additionalProps: POST /v1/components/props answers its full props for a configuration */
                            has_additional_props?: boolean;
                            /** @description sc_… */
                            id: string;
                            key: string | null;
                            /** @description the npm packages the code imports, each at the version it was bundled with */
                            lock: {
                                [key: string]: string;
                            };
                            name: string;
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listPublishedComponents: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                key?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            code_hash: string;
                            configurable_props: ({
                                /** @description an app prop's app name slug */
                                app?: string;
                                /** @description the value used when none is configured */
                                default?: unknown;
                                description?: string;
                                label?: string;
                                max?: number;
                                min?: number;
                                name: string;
                                optional?: boolean;
                                /** @description static options as given (values or {label, value}); absent when dynamic */
                                options?: unknown[];
                                reloadProps?: boolean;
                                /** @description options come from POST /v1/components/configure */
                                remoteOptions?: boolean;
                                secret?: boolean;
                                /** @description string, integer, boolean, app, string[], $.interface.http, … */
                                type: string;
                                useQuery?: boolean;
                                withLabel?: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description a source's dedupe: unique, greatest or last */
                            dedupe: string | null;
                            description: string | null;
                            /** @description the component has additionalProps: POST /v1/components/props answers its full props for a configuration */
                            has_additional_props?: boolean;
                            /** @description sc_… of the published code */
                            id: string;
                            key: string;
                            /** @description the npm packages the code imports, each at the version it was bundled with */
                            lock: {
                                [key: string]: string;
                            };
                            name: string;
                            /** @description epoch seconds */
                            published_at: number;
                            /** @enum {string} */
                            type: "source" | "action";
                            version: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listSources: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
                /** @description keep the sources whose name, dc_ id, component key or endpoint id holds these words (any case) */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            active: boolean;
                            component_id: string;
                            component_key: string | null;
                            /** @description the component's version, if it has one */
                            component_version: string | null;
                            configured_props: {
                                [key: string]: unknown;
                            };
                            /** @description epoch seconds */
                            created_at: number;
                            endpoint_url: string | null;
                            /** @description dc_… */
                            id: string;
                            /** @description epoch seconds of the newest event; null before one */
                            last_event_at: number | null;
                            max_events: number;
                            name: string;
                            name_slug: string;
                            owner_id: string;
                            timeout_seconds: number;
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at: number;
                            emitter_id: string;
                            /** @description the channel; null for every channel */
                            event_name: string | null;
                            /** @description sub_… */
                            id: string;
                            listener_id: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description epoch seconds */
                            created_at: number;
                            description: string;
                            /** @description why Sluice disabled it */
                            disabled_reason: string | null;
                            /** @description wh_… */
                            id: string;
                            name: string;
                            /** @description deliveries per second at most */
                            rate_limit: number | null;
                            /** @description epoch seconds */
                            updated_at: number;
                            url: string;
                        }[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listWorkflows: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            active: boolean;
                            /** @description runs at the same time at most */
                            concurrency: number;
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description {base}/e/<id> for an HTTP-triggered workflow */
                            endpoint_url: string | null;
                            /** @description p_… */
                            id: string;
                            name: string;
                            owner_id: string;
                            /** @description attempts after a failed one */
                            retries: number;
                            /** @description whether a time-out or out-of-memory failure is retried too */
                            retry_timeouts: boolean;
                            steps: ({
                                /** @description sc_… */
                                component_id: string;
                                component_key: string | null;
                                component_version: string | null;
                                name: string;
                                /** @description prop values as written (secrets masked); strings may hold {{ expressions }} */
                                props: {
                                    [key: string]: unknown;
                                };
                                /** @description only when the step sets its own */
                                timeout_seconds?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description per step */
                            timeout_seconds: number;
                            trigger: ({
                                custom_response: boolean;
                                /** @enum {string} */
                                type: "http";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                cron?: string;
                                interval_seconds?: number;
                                /** @description the timer source (dc_…) that starts runs */
                                source_id: string | null;
                                timezone?: string;
                                /** @enum {string} */
                                type: "timer";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                event_name: string | null;
                                source_id: string;
                                /** @enum {string} */
                                type: "source";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                component_id: string;
                                /** @description the source (dc_…) deployed for the workflow */
                                source_id: string | null;
                                /** @enum {string} */
                                type: "uses";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                /** @enum {string} */
                                type: "none";
                            } & {
                                [key: string]: unknown;
                            });
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    name?: string;
                    /** @description deliveries per second at most */
                    rate_limit?: number | null;
                    /** @description http(s) URL, at most 2,048 characters */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description epoch seconds */
                            created_at: number;
                            description: string;
                            /** @description why Sluice disabled it */
                            disabled_reason: string | null;
                            /** @description wh_… */
                            id: string;
                            name: string;
                            /** @description deliveries per second at most */
                            rate_limit: number | null;
                            /** @description whsec_…; returned by this call only */
                            signing_secret: string;
                            /** @description epoch seconds */
                            updated_at: number;
                            url: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description epoch seconds */
                            created_at: number;
                            description: string;
                            /** @description why Sluice disabled it */
                            disabled_reason: string | null;
                            /** @description wh_… */
                            id: string;
                            name: string;
                            /** @description deliveries per second at most */
                            rate_limit: number | null;
                            /** @description epoch seconds */
                            updated_at: number;
                            url: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    description?: string;
                    name?: string;
                    rate_limit?: number | null;
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description epoch seconds */
                            created_at: number;
                            description: string;
                            /** @description why Sluice disabled it */
                            disabled_reason: string | null;
                            /** @description wh_… */
                            id: string;
                            name: string;
                            /** @description deliveries per second at most */
                            rate_limit: number | null;
                            /** @description epoch seconds */
                            updated_at: number;
                            url: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
                status?: "pending" | "delivered" | "failed";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            attempts: number;
                            channel: string | null;
                            /** @description epoch seconds */
                            created_at: number;
                            emitter_id: string;
                            event_id: string;
                            /** @description dlv_… */
                            id: string;
                            last_error: string | null;
                            last_latency_ms: number | null;
                            last_status_code: number | null;
                            /** @description epoch seconds of the next automatic attempt */
                            next_attempt_at: number | null;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            /** @description epoch seconds */
                            updated_at: number;
                            webhook_id: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description epoch seconds or ISO 8601 */
                    since?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            resent: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description epoch seconds */
                            created_at: number;
                            description: string;
                            /** @description why Sluice disabled it */
                            disabled_reason: string | null;
                            /** @description wh_… */
                            id: string;
                            name: string;
                            /** @description deliveries per second at most */
                            rate_limit: number | null;
                            /** @description whsec_…; returned by this call only */
                            signing_secret: string;
                            /** @description epoch seconds */
                            updated_at: number;
                            url: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            created_at_ms: number;
                            duration_ms: number | null;
                            error: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                reason: string;
                                stack: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            exit: ({
                                reason: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            finished_at_ms: number | null;
                            /** @description what happened to the run, oldest first: its attempts, waits, resumes, reruns, retries, cancellation */
                            history: ({
                                at_ms: number;
                                /** @description what resumed or cancelled it, which attempt began */
                                cause?: string;
                                /** @enum {string} */
                                event: "attempt" | "paused" | "suspended" | "rerun" | "resumed" | "retry" | "cancelled";
                                step?: string;
                                /** @description when a wait or retry ends */
                                until_ms?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description wr_… */
                            id: string;
                            /** @description the run this one replays */
                            replay_of: string | null;
                            /** @description what the run's $.send.* calls became, as for a single action run */
                            sends: ({
                                /** @description what the action asked to send, credentials masked */
                                input: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "http" | "email" | "emit" | "sse" | "s3";
                                outcome: {
                                    error?: string;
                                    /** @description the SMTP server's id of an email */
                                    message_id?: string;
                                    ok: boolean;
                                    /** @description emit and sse: kept in the result (a workflow routes them) */
                                    recorded?: boolean;
                                    /** @description not attempted: the run failed */
                                    skipped?: boolean;
                                    /** @description the HTTP status of an http send */
                                    status?: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            started_at_ms: number | null;
                            /**
                             * @description paused or suspended: waiting after a step's $.flow.delay, rerun or suspend
                             * @enum {string}
                             */
                            status: "queued" | "running" | "paused" | "suspended" | "success" | "error" | "exited" | "cancelled";
                            steps: ({
                                duration_ms: number;
                                error: ({
                                    message: string;
                                    /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                    reason: string;
                                    stack: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                exports: {
                                    [key: string]: unknown;
                                };
                                flow_exit: ({
                                    reason: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                logs: ({
                                    /** @description log, info, warn, error or debug */
                                    level: string;
                                    message: string;
                                    /** @description epoch milliseconds */
                                    ts: number;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                name: string;
                                /** @description what the step returned (JSON) */
                                return_value: unknown;
                                started_at_ms: number;
                                /** @enum {string} */
                                status: "success" | "error" | "exited";
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            trigger: {
                                /** @description how it was started */
                                context: unknown;
                                /** @description the event that started the run */
                                event: unknown;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description set while the run is paused or suspended, or queued for a failed step's retry */
                            wait: ({
                                /** @enum {string} */
                                kind: "delay" | "suspend" | "rerun" | "retry";
                                step: string;
                                /** @description when it goes on by itself, or (suspend) is cancelled unless resumed first */
                                until_ms: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    cancelWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            created_at_ms: number;
                            duration_ms: number | null;
                            error: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                reason: string;
                                stack: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            exit: ({
                                reason: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            finished_at_ms: number | null;
                            /** @description what happened to the run, oldest first: its attempts, waits, resumes, reruns, retries, cancellation */
                            history: ({
                                at_ms: number;
                                /** @description what resumed or cancelled it, which attempt began */
                                cause?: string;
                                /** @enum {string} */
                                event: "attempt" | "paused" | "suspended" | "rerun" | "resumed" | "retry" | "cancelled";
                                step?: string;
                                /** @description when a wait or retry ends */
                                until_ms?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description wr_… */
                            id: string;
                            /** @description the run this one replays */
                            replay_of: string | null;
                            /** @description what the run's $.send.* calls became, as for a single action run */
                            sends: ({
                                /** @description what the action asked to send, credentials masked */
                                input: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "http" | "email" | "emit" | "sse" | "s3";
                                outcome: {
                                    error?: string;
                                    /** @description the SMTP server's id of an email */
                                    message_id?: string;
                                    ok: boolean;
                                    /** @description emit and sse: kept in the result (a workflow routes them) */
                                    recorded?: boolean;
                                    /** @description not attempted: the run failed */
                                    skipped?: boolean;
                                    /** @description the HTTP status of an http send */
                                    status?: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            started_at_ms: number | null;
                            /**
                             * @description paused or suspended: waiting after a step's $.flow.delay, rerun or suspend
                             * @enum {string}
                             */
                            status: "queued" | "running" | "paused" | "suspended" | "success" | "error" | "exited" | "cancelled";
                            steps: ({
                                duration_ms: number;
                                error: ({
                                    message: string;
                                    /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                    reason: string;
                                    stack: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                exports: {
                                    [key: string]: unknown;
                                };
                                flow_exit: ({
                                    reason: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                logs: ({
                                    /** @description log, info, warn, error or debug */
                                    level: string;
                                    message: string;
                                    /** @description epoch milliseconds */
                                    ts: number;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                name: string;
                                /** @description what the step returned (JSON) */
                                return_value: unknown;
                                started_at_ms: number;
                                /** @enum {string} */
                                status: "success" | "error" | "exited";
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            trigger: {
                                /** @description how it was started */
                                context: unknown;
                                /** @description the event that started the run */
                                event: unknown;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description set while the run is paused or suspended, or queued for a failed step's retry */
                            wait: ({
                                /** @enum {string} */
                                kind: "delay" | "suspend" | "rerun" | "retry";
                                step: string;
                                /** @description when it goes on by itself, or (suspend) is cancelled unless resumed first */
                                until_ms: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    replayWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description run from the step the original failed at */
                    from_failed_step?: boolean;
                    /** @description run from this step on, reusing the original's outcomes of the steps before it */
                    from_step?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            created_at_ms: number;
                            duration_ms: number | null;
                            error: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                reason: string;
                                stack: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            exit: ({
                                reason: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            finished_at_ms: number | null;
                            /** @description what happened to the run, oldest first: its attempts, waits, resumes, reruns, retries, cancellation */
                            history: ({
                                at_ms: number;
                                /** @description what resumed or cancelled it, which attempt began */
                                cause?: string;
                                /** @enum {string} */
                                event: "attempt" | "paused" | "suspended" | "rerun" | "resumed" | "retry" | "cancelled";
                                step?: string;
                                /** @description when a wait or retry ends */
                                until_ms?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description wr_… */
                            id: string;
                            /** @description the run this one replays */
                            replay_of: string | null;
                            /** @description what the run's $.send.* calls became, as for a single action run */
                            sends: ({
                                /** @description what the action asked to send, credentials masked */
                                input: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "http" | "email" | "emit" | "sse" | "s3";
                                outcome: {
                                    error?: string;
                                    /** @description the SMTP server's id of an email */
                                    message_id?: string;
                                    ok: boolean;
                                    /** @description emit and sse: kept in the result (a workflow routes them) */
                                    recorded?: boolean;
                                    /** @description not attempted: the run failed */
                                    skipped?: boolean;
                                    /** @description the HTTP status of an http send */
                                    status?: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            started_at_ms: number | null;
                            /**
                             * @description paused or suspended: waiting after a step's $.flow.delay, rerun or suspend
                             * @enum {string}
                             */
                            status: "queued" | "running" | "paused" | "suspended" | "success" | "error" | "exited" | "cancelled";
                            steps: ({
                                duration_ms: number;
                                error: ({
                                    message: string;
                                    /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                    reason: string;
                                    stack: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                exports: {
                                    [key: string]: unknown;
                                };
                                flow_exit: ({
                                    reason: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                logs: ({
                                    /** @description log, info, warn, error or debug */
                                    level: string;
                                    message: string;
                                    /** @description epoch milliseconds */
                                    ts: number;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                name: string;
                                /** @description what the step returned (JSON) */
                                return_value: unknown;
                                started_at_ms: number;
                                /** @enum {string} */
                                status: "success" | "error" | "exited";
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            trigger: {
                                /** @description how it was started */
                                context: unknown;
                                /** @description the event that started the run */
                                event: unknown;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description set while the run is paused or suspended, or queued for a failed step's retry */
                            wait: ({
                                /** @enum {string} */
                                kind: "delay" | "suspend" | "rerun" | "retry";
                                step: string;
                                /** @description when it goes on by itself, or (suspend) is cancelled unless resumed first */
                                until_ms: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    resumeWorkflowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data?: unknown;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            created_at_ms: number;
                            duration_ms: number | null;
                            error: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                reason: string;
                                stack: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            exit: ({
                                reason: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            finished_at_ms: number | null;
                            /** @description what happened to the run, oldest first: its attempts, waits, resumes, reruns, retries, cancellation */
                            history: ({
                                at_ms: number;
                                /** @description what resumed or cancelled it, which attempt began */
                                cause?: string;
                                /** @enum {string} */
                                event: "attempt" | "paused" | "suspended" | "rerun" | "resumed" | "retry" | "cancelled";
                                step?: string;
                                /** @description when a wait or retry ends */
                                until_ms?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description wr_… */
                            id: string;
                            /** @description the run this one replays */
                            replay_of: string | null;
                            /** @description what the run's $.send.* calls became, as for a single action run */
                            sends: ({
                                /** @description what the action asked to send, credentials masked */
                                input: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "http" | "email" | "emit" | "sse" | "s3";
                                outcome: {
                                    error?: string;
                                    /** @description the SMTP server's id of an email */
                                    message_id?: string;
                                    ok: boolean;
                                    /** @description emit and sse: kept in the result (a workflow routes them) */
                                    recorded?: boolean;
                                    /** @description not attempted: the run failed */
                                    skipped?: boolean;
                                    /** @description the HTTP status of an http send */
                                    status?: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            started_at_ms: number | null;
                            /**
                             * @description paused or suspended: waiting after a step's $.flow.delay, rerun or suspend
                             * @enum {string}
                             */
                            status: "queued" | "running" | "paused" | "suspended" | "success" | "error" | "exited" | "cancelled";
                            steps: ({
                                duration_ms: number;
                                error: ({
                                    message: string;
                                    /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                    reason: string;
                                    stack: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                exports: {
                                    [key: string]: unknown;
                                };
                                flow_exit: ({
                                    reason: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                logs: ({
                                    /** @description log, info, warn, error or debug */
                                    level: string;
                                    message: string;
                                    /** @description epoch milliseconds */
                                    ts: number;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                name: string;
                                /** @description what the step returned (JSON) */
                                return_value: unknown;
                                started_at_ms: number;
                                /** @enum {string} */
                                status: "success" | "error" | "exited";
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            trigger: {
                                /** @description how it was started */
                                context: unknown;
                                /** @description the event that started the run */
                                event: unknown;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description set while the run is paused or suspended, or queued for a failed step's retry */
                            wait: ({
                                /** @enum {string} */
                                kind: "delay" | "suspend" | "rerun" | "retry";
                                step: string;
                                /** @description when it goes on by itself, or (suspend) is cancelled unless resumed first */
                                until_ms: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    /** @description runs at the same time at most; default 1 */
                    concurrency?: number;
                    name: string;
                    /** @description attempts after a failed one; default 0 */
                    retries?: number;
                    /** @description retry a step that timed out or ran out of memory too; default false */
                    retry_timeouts?: boolean;
                    steps: {
                        /** @description the component's source code */
                        code?: string;
                        /** @description a saved component (sc_…) */
                        component_id?: string;
                        /** @description the file code came from, for the server's messages (.ts for TypeScript to compile) */
                        filename?: string;
                        /** @description a published key: key (the latest version) or key@version */
                        key?: string;
                        /** @description an identifier; later steps read its results as steps.<name> */
                        name: string;
                        /** @description prop values; strings may hold {{ expression }}s evaluated against steps */
                        props?: {
                            [key: string]: unknown;
                        };
                        timeout_seconds?: number;
                        /** @description a published key or an sc_ id (not a file path) */
                        uses?: string;
                    }[];
                    /** @description per step; default 30 */
                    timeout_seconds?: number;
                    trigger?: ({
                        http: {
                            customResponse?: boolean;
                        };
                    } | {
                        timer: {
                            intervalSeconds: number;
                        } | {
                            cron: string;
                            timezone?: string;
                        };
                    } | {
                        /** @description only its events on this channel */
                        event_name?: string;
                        /** @description a deployed source (dc_…) */
                        source: string;
                    } | {
                        /** @description the component's source code */
                        code?: string;
                        /** @description a saved component (sc_…) */
                        component_id?: string;
                        /** @description the file code came from, for the server's messages (.ts for TypeScript to compile) */
                        filename?: string;
                        /** @description a published key: key (the latest version) or key@version */
                        key?: string;
                        /** @description prop values; strings may hold {{ expression }}s evaluated against steps */
                        props?: {
                            [key: string]: unknown;
                        };
                        /** @description a published key or an sc_ id (not a file path) */
                        uses?: string;
                    }) | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description runs at the same time at most */
                            concurrency: number;
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description {base}/e/<id> for an HTTP-triggered workflow */
                            endpoint_url: string | null;
                            /** @description p_… */
                            id: string;
                            name: string;
                            owner_id: string;
                            /** @description attempts after a failed one */
                            retries: number;
                            /** @description whether a time-out or out-of-memory failure is retried too */
                            retry_timeouts: boolean;
                            steps: ({
                                /** @description sc_… */
                                component_id: string;
                                component_key: string | null;
                                component_version: string | null;
                                name: string;
                                /** @description prop values as written (secrets masked); strings may hold {{ expressions }} */
                                props: {
                                    [key: string]: unknown;
                                };
                                /** @description only when the step sets its own */
                                timeout_seconds?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description per step */
                            timeout_seconds: number;
                            trigger: ({
                                custom_response: boolean;
                                /** @enum {string} */
                                type: "http";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                cron?: string;
                                interval_seconds?: number;
                                /** @description the timer source (dc_…) that starts runs */
                                source_id: string | null;
                                timezone?: string;
                                /** @enum {string} */
                                type: "timer";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                event_name: string | null;
                                source_id: string;
                                /** @enum {string} */
                                type: "source";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                component_id: string;
                                /** @description the source (dc_…) deployed for the workflow */
                                source_id: string | null;
                                /** @enum {string} */
                                type: "uses";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                /** @enum {string} */
                                type: "none";
                            } & {
                                [key: string]: unknown;
                            });
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description runs at the same time at most */
                            concurrency: number;
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description {base}/e/<id> for an HTTP-triggered workflow */
                            endpoint_url: string | null;
                            /** @description p_… */
                            id: string;
                            name: string;
                            owner_id: string;
                            /** @description attempts after a failed one */
                            retries: number;
                            /** @description whether a time-out or out-of-memory failure is retried too */
                            retry_timeouts: boolean;
                            steps: ({
                                /** @description sc_… */
                                component_id: string;
                                component_key: string | null;
                                component_version: string | null;
                                name: string;
                                /** @description prop values as written (secrets masked); strings may hold {{ expressions }} */
                                props: {
                                    [key: string]: unknown;
                                };
                                /** @description only when the step sets its own */
                                timeout_seconds?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description per step */
                            timeout_seconds: number;
                            trigger: ({
                                custom_response: boolean;
                                /** @enum {string} */
                                type: "http";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                cron?: string;
                                interval_seconds?: number;
                                /** @description the timer source (dc_…) that starts runs */
                                source_id: string | null;
                                timezone?: string;
                                /** @enum {string} */
                                type: "timer";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                event_name: string | null;
                                source_id: string;
                                /** @enum {string} */
                                type: "source";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                component_id: string;
                                /** @description the source (dc_…) deployed for the workflow */
                                source_id: string | null;
                                /** @enum {string} */
                                type: "uses";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                /** @enum {string} */
                                type: "none";
                            } & {
                                [key: string]: unknown;
                            });
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    updateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    /** @description runs at the same time at most; default 1 */
                    concurrency?: number;
                    name: string;
                    /** @description attempts after a failed one; default 0 */
                    retries?: number;
                    /** @description retry a step that timed out or ran out of memory too; default false */
                    retry_timeouts?: boolean;
                    steps: {
                        /** @description the component's source code */
                        code?: string;
                        /** @description a saved component (sc_…) */
                        component_id?: string;
                        /** @description the file code came from, for the server's messages (.ts for TypeScript to compile) */
                        filename?: string;
                        /** @description a published key: key (the latest version) or key@version */
                        key?: string;
                        /** @description an identifier; later steps read its results as steps.<name> */
                        name: string;
                        /** @description prop values; strings may hold {{ expression }}s evaluated against steps */
                        props?: {
                            [key: string]: unknown;
                        };
                        timeout_seconds?: number;
                        /** @description a published key or an sc_ id (not a file path) */
                        uses?: string;
                    }[];
                    /** @description per step; default 30 */
                    timeout_seconds?: number;
                    trigger?: ({
                        http: {
                            customResponse?: boolean;
                        };
                    } | {
                        timer: {
                            intervalSeconds: number;
                        } | {
                            cron: string;
                            timezone?: string;
                        };
                    } | {
                        /** @description only its events on this channel */
                        event_name?: string;
                        /** @description a deployed source (dc_…) */
                        source: string;
                    } | {
                        /** @description the component's source code */
                        code?: string;
                        /** @description a saved component (sc_…) */
                        component_id?: string;
                        /** @description the file code came from, for the server's messages (.ts for TypeScript to compile) */
                        filename?: string;
                        /** @description a published key: key (the latest version) or key@version */
                        key?: string;
                        /** @description prop values; strings may hold {{ expression }}s evaluated against steps */
                        props?: {
                            [key: string]: unknown;
                        };
                        /** @description a published key or an sc_ id (not a file path) */
                        uses?: string;
                    }) | null;
                } | {
                    active: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active: boolean;
                            /** @description runs at the same time at most */
                            concurrency: number;
                            /** @description epoch seconds */
                            created_at: number;
                            /** @description {base}/e/<id> for an HTTP-triggered workflow */
                            endpoint_url: string | null;
                            /** @description p_… */
                            id: string;
                            name: string;
                            owner_id: string;
                            /** @description attempts after a failed one */
                            retries: number;
                            /** @description whether a time-out or out-of-memory failure is retried too */
                            retry_timeouts: boolean;
                            steps: ({
                                /** @description sc_… */
                                component_id: string;
                                component_key: string | null;
                                component_version: string | null;
                                name: string;
                                /** @description prop values as written (secrets masked); strings may hold {{ expressions }} */
                                props: {
                                    [key: string]: unknown;
                                };
                                /** @description only when the step sets its own */
                                timeout_seconds?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description per step */
                            timeout_seconds: number;
                            trigger: ({
                                custom_response: boolean;
                                /** @enum {string} */
                                type: "http";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                cron?: string;
                                interval_seconds?: number;
                                /** @description the timer source (dc_…) that starts runs */
                                source_id: string | null;
                                timezone?: string;
                                /** @enum {string} */
                                type: "timer";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                event_name: string | null;
                                source_id: string;
                                /** @enum {string} */
                                type: "source";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                component_id: string;
                                /** @description the source (dc_…) deployed for the workflow */
                                source_id: string | null;
                                /** @enum {string} */
                                type: "uses";
                            } & {
                                [key: string]: unknown;
                            }) | ({
                                /** @enum {string} */
                                type: "none";
                            } & {
                                [key: string]: unknown;
                            });
                            /** @description epoch seconds */
                            updated_at: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deleted: boolean;
                            id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listWorkflowEvents: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                /** @description only events emitted on this channel */
                event_name?: string;
                /** @description event: include every event in full */
                expand?: "event";
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            /** @description the event; left out when larger than 1 KB, unless expand=event */
                            event?: unknown;
                            /** @description true when event was left out for its size */
                            event_truncated?: boolean;
                            /** @description <ms>-<seq> */
                            id: string;
                            indexed_at_ms: number;
                            metadata: {
                                /** @description the event's id */
                                emit_id: string;
                                /** @description the source (dc_…) or workflow (p_…) */
                                emitter_id: string;
                                /** @description the id the component gave it (dedupe) */
                                id: string | null;
                                /** @description the channel it was emitted on; empty for the default */
                                name: string;
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    replayWorkflowRuns: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description only count the runs it would replay */
                    dry_run?: boolean;
                    /** @description which runs to replay (all of them without one); each is replayed once, oldest first */
                    filter?: {
                        /** @description only runs that failed at this step */
                        failed_step?: string;
                        /** @description only runs created at or after this time */
                        since?: number | string;
                        /** @description only runs with this status, or one of these (comma-separated): queued, running, paused, suspended, success, error, exited, cancelled */
                        status?: string;
                        /** @description only runs created at or before this time */
                        until?: number | string;
                    };
                    /** @description replay each run from the step that failed, reusing the outcomes of the steps before it */
                    from_failed_step?: boolean;
                    /** @description its replays queued or running at once at most; default 10 */
                    max_in_flight?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            dry_run: true;
                            /** @description the runs it would replay */
                            total: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at_ms: number;
                            /** @description its replays that ended */
                            done: number;
                            filter: {
                                failed_step: string | null;
                                since_ms: number | null;
                                status: string | null;
                                until_ms: number | null;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description when its last replay was queued */
                            finished_at_ms: number | null;
                            from_failed_step: boolean;
                            /** @description rp_… */
                            id: string;
                            /** @description its replays queued or running now */
                            in_flight: number;
                            max_in_flight: number;
                            /** @description its replays queued so far */
                            queued: number;
                            /** @description runs not replayed: they no longer matched, or could not be replayed from their failed step */
                            skipped: number;
                            /**
                             * @description queuing while runs are left to queue, running until its replays have ended
                             * @enum {string}
                             */
                            status: "queuing" | "running" | "done";
                            /** @description the runs it matched when it started */
                            total: number;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getWorkflowReplay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                replay_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created_at_ms: number;
                            /** @description its replays that ended */
                            done: number;
                            filter: {
                                failed_step: string | null;
                                since_ms: number | null;
                                status: string | null;
                                until_ms: number | null;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description when its last replay was queued */
                            finished_at_ms: number | null;
                            from_failed_step: boolean;
                            /** @description rp_… */
                            id: string;
                            /** @description its replays queued or running now */
                            in_flight: number;
                            max_in_flight: number;
                            /** @description its replays queued so far */
                            queued: number;
                            /** @description runs not replayed: they no longer matched, or could not be replayed from their failed step */
                            skipped: number;
                            /**
                             * @description queuing while runs are left to queue, running until its replays have ended
                             * @enum {string}
                             */
                            status: "queuing" | "running" | "done";
                            /** @description the runs it matched when it started */
                            total: number;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listWorkflowRuns: {
        parameters: {
            query?: {
                /** @description Cursor: return items after this id (older) */
                after?: string;
                /** @description Cursor: return items before this id (newer) */
                before?: string;
                limit?: number;
                /** @description only runs with this status, or one of these (comma-separated): queued, running, paused, suspended, success, error, exited, cancelled */
                status?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            attempts: number;
                            created_at_ms: number;
                            duration_ms: number | null;
                            error: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                reason: string;
                                stack: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            exit: ({
                                reason: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            finished_at_ms: number | null;
                            /** @description what happened to the run, oldest first: its attempts, waits, resumes, reruns, retries, cancellation */
                            history: ({
                                at_ms: number;
                                /** @description what resumed or cancelled it, which attempt began */
                                cause?: string;
                                /** @enum {string} */
                                event: "attempt" | "paused" | "suspended" | "rerun" | "resumed" | "retry" | "cancelled";
                                step?: string;
                                /** @description when a wait or retry ends */
                                until_ms?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description wr_… */
                            id: string;
                            /** @description the run this one replays */
                            replay_of: string | null;
                            /** @description what the run's $.send.* calls became, as for a single action run */
                            sends: ({
                                /** @description what the action asked to send, credentials masked */
                                input: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "http" | "email" | "emit" | "sse" | "s3";
                                outcome: {
                                    error?: string;
                                    /** @description the SMTP server's id of an email */
                                    message_id?: string;
                                    ok: boolean;
                                    /** @description emit and sse: kept in the result (a workflow routes them) */
                                    recorded?: boolean;
                                    /** @description not attempted: the run failed */
                                    skipped?: boolean;
                                    /** @description the HTTP status of an http send */
                                    status?: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            started_at_ms: number | null;
                            /**
                             * @description paused or suspended: waiting after a step's $.flow.delay, rerun or suspend
                             * @enum {string}
                             */
                            status: "queued" | "running" | "paused" | "suspended" | "success" | "error" | "exited" | "cancelled";
                            steps: ({
                                duration_ms: number;
                                error: ({
                                    message: string;
                                    /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                    reason: string;
                                    stack: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                exports: {
                                    [key: string]: unknown;
                                };
                                flow_exit: ({
                                    reason: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                logs: ({
                                    /** @description log, info, warn, error or debug */
                                    level: string;
                                    message: string;
                                    /** @description epoch milliseconds */
                                    ts: number;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                name: string;
                                /** @description what the step returned (JSON) */
                                return_value: unknown;
                                started_at_ms: number;
                                /** @enum {string} */
                                status: "success" | "error" | "exited";
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            trigger: {
                                /** @description how it was started */
                                context: unknown;
                                /** @description the event that started the run */
                                event: unknown;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description set while the run is paused or suspended, or queued for a failed step's retry */
                            wait: ({
                                /** @enum {string} */
                                kind: "delay" | "suspend" | "rerun" | "retry";
                                step: string;
                                /** @description when it goes on by itself, or (suspend) is cancelled unless resumed first */
                                until_ms: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        page_info: {
                            count: number;
                            end_cursor: string | null;
                            start_cursor: string | null;
                            total_count: number;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    runWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    event?: unknown;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            created_at_ms: number;
                            duration_ms: number | null;
                            error: ({
                                message: string;
                                /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                reason: string;
                                stack: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            exit: ({
                                reason: string | null;
                                step: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            finished_at_ms: number | null;
                            /** @description what happened to the run, oldest first: its attempts, waits, resumes, reruns, retries, cancellation */
                            history: ({
                                at_ms: number;
                                /** @description what resumed or cancelled it, which attempt began */
                                cause?: string;
                                /** @enum {string} */
                                event: "attempt" | "paused" | "suspended" | "rerun" | "resumed" | "retry" | "cancelled";
                                step?: string;
                                /** @description when a wait or retry ends */
                                until_ms?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description wr_… */
                            id: string;
                            /** @description the run this one replays */
                            replay_of: string | null;
                            /** @description what the run's $.send.* calls became, as for a single action run */
                            sends: ({
                                /** @description what the action asked to send, credentials masked */
                                input: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "http" | "email" | "emit" | "sse" | "s3";
                                outcome: {
                                    error?: string;
                                    /** @description the SMTP server's id of an email */
                                    message_id?: string;
                                    ok: boolean;
                                    /** @description emit and sse: kept in the result (a workflow routes them) */
                                    recorded?: boolean;
                                    /** @description not attempted: the run failed */
                                    skipped?: boolean;
                                    /** @description the HTTP status of an http send */
                                    status?: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            started_at_ms: number | null;
                            /**
                             * @description paused or suspended: waiting after a step's $.flow.delay, rerun or suspend
                             * @enum {string}
                             */
                            status: "queued" | "running" | "paused" | "suspended" | "success" | "error" | "exited" | "cancelled";
                            steps: ({
                                duration_ms: number;
                                error: ({
                                    message: string;
                                    /** @description error, timeout, crash, out_of_memory, exit, load_error, expression… */
                                    reason: string;
                                    stack: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                exports: {
                                    [key: string]: unknown;
                                };
                                flow_exit: ({
                                    reason: string | null;
                                } & {
                                    [key: string]: unknown;
                                }) | null;
                                logs: ({
                                    /** @description log, info, warn, error or debug */
                                    level: string;
                                    message: string;
                                    /** @description epoch milliseconds */
                                    ts: number;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                name: string;
                                /** @description what the step returned (JSON) */
                                return_value: unknown;
                                started_at_ms: number;
                                /** @enum {string} */
                                status: "success" | "error" | "exited";
                                summary: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            trigger: {
                                /** @description how it was started */
                                context: unknown;
                                /** @description the event that started the run */
                                event: unknown;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description set while the run is paused or suspended, or queued for a failed step's retry */
                            wait: ({
                                /** @enum {string} */
                                kind: "delay" | "suspend" | "rerun" | "retry";
                                step: string;
                                /** @description when it goes on by itself, or (suspend) is cancelled unless resumed first */
                                until_ms: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            workflow_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
}
