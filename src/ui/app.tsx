/** Routes: one page per path, each a permalink; every page but sign-in needs a session. */
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { isUnauthenticated } from "./api.js";
import { AppsPage } from "./apps/apps-page.js";
import { useMe } from "./components/session.js";
import { Shell } from "./components/shell.js";
import { ErrorBox, Loading } from "./components/status.js";
import { ComponentsPage } from "./components-page/components-page.js";
import { AccountsPage } from "./keys/accounts-page.js";
import { KeysPage } from "./keys/keys-page.js";
import { SignInPage } from "./signin/sign-in-page.js";
import { CreateSourcePage } from "./sources/create-source-page.js";
import { SourcePage } from "./sources/source-page.js";
import { SourcesPage } from "./sources/sources-page.js";
import { WebhookPage } from "./webhooks/webhook-page.js";
import { WebhooksPage } from "./webhooks/webhooks-page.js";
import { WorkflowPage } from "./workflows/workflow-page.js";
import { WorkflowsPage } from "./workflows/workflows-page.js";

export function App() {
  return (
    <Switch>
      <Route path="/signin" component={SignInPage} />
      <Route>
        <SignedIn />
      </Route>
    </Switch>
  );
}

function SignedIn() {
  const me = useMe();
  const [location] = useLocation();
  const search = useSearch();
  if (me.isPending) return <Loading what="your account" />;
  if (me.error) {
    if (isUnauthenticated(me.error)) {
      const next = location + (search ? `?${search}` : "");
      return <Redirect to={`/signin?next=${encodeURIComponent(next)}`} replace />;
    }
    return <ErrorBox error={me.error} />;
  }
  return (
    <Shell me={me.data}>
      <Switch>
        <Route path="/">
          <Redirect to="/sources" replace />
        </Route>
        <Route path="/sources" component={SourcesRoute} />
        <Route path="/sources/:id">{(params) => <SourcePage id={params.id} />}</Route>
        <Route path="/webhooks" component={WebhooksPage} />
        <Route path="/webhooks/:id">{(params) => <WebhookPage id={params.id} />}</Route>
        <Route path="/workflows" component={WorkflowsPage} />
        <Route path="/workflows/:id">{(params) => <WorkflowPage id={params.id} />}</Route>
        <Route path="/components" component={ComponentsPage} />
        <Route path="/apps" component={AppsPage} />
        <Route path="/keys" component={KeysPage} />
        <Route path="/accounts">{me.data.is_admin ? <AccountsPage /> : <NotFound />}</Route>
        <Route component={NotFound} />
      </Switch>
    </Shell>
  );
}

/** SPEC.md's deploy links: /sources?action=create&key=… or &url=… open the create form. */
function SourcesRoute() {
  const params = new URLSearchParams(useSearch());
  return params.get("action") === "create" ? <CreateSourcePage /> : <SourcesPage />;
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>There is no page at this address.</p>
    </section>
  );
}
