/**
 * The connect link page (`/_static/connect.html`, Pipedream's path) where an end user connects an
 * app with a connect token, ending as Pipedream's does: `{type: "success", authProvisionId}` then
 * `{type: "close"}` posted to its opener or parent. Self-contained; text set with textContent only.
 */
import type { FastifyInstance } from "fastify";
import { CONNECT_PAGE_PATH } from "./tokens.js";

const STYLE = `
:root { color-scheme: light dark; --fg: #1a1d21; --muted: #5b6470; --bg: #ffffff; --line: #c9d0d8;
  --accent: #1f5fbf; --accent-fg: #ffffff; --error: #b3261e; --ok: #1b7f3b; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --muted: #a9b1bb; --bg: #16181b; --line: #3b424a;
  --accent: #7fb0ff; --accent-fg: #0b1220; --error: #ff8a80; --ok: #7fd99a; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 0 1rem; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 28rem; margin: 2rem auto; padding: 1.5rem; border: 1px solid var(--line); border-radius: 8px; }
h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
p { margin: .5rem 0; }
.muted { color: var(--muted); font-size: .9rem; }
label { display: block; font-weight: 600; margin-top: 1rem; }
.hint { display: block; font-weight: 400; color: var(--muted); font-size: .85rem; }
input { width: 100%; padding: .5rem; margin-top: .25rem; font: inherit; color: inherit; background: transparent;
  border: 1px solid var(--line); border-radius: 4px; }
.row { display: flex; gap: .5rem; }
.row > div { flex: 1; }
button { margin-top: 1.25rem; padding: .55rem 1rem; font: inherit; border-radius: 4px; cursor: pointer;
  border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); }
button.secondary { background: transparent; color: var(--accent); margin-right: .5rem; }
[role=alert] { color: var(--error); margin-top: 1rem; }
.done { color: var(--ok); font-weight: 600; }
`;

const SCRIPT = `
(() => {
  const main = document.querySelector("main");
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  let appSlug = params.get("app") || "";
  const peer = window.opener || (window.parent !== window ? window.parent : null);
  const tell = (message) => { if (peer) peer.postMessage(message, "*"); };
  let successRedirect = null;
  let errorRedirect = null;

  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props)) {
      if (name === "text") node.textContent = value;
      else if (name in node && name !== "for") node[name] = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  };
  const show = (...children) => { main.replaceChildren(...children); };
  const fail = (message) => {
    show(el("h1", { text: "Could not connect" }), el("p", { role: "alert", text: message }), closeButton());
    tell({ type: "error", error: message });
    if (errorRedirect && !peer) location.assign(errorRedirect);
  };
  const closeButton = () => {
    const button = el("button", { type: "button", className: "secondary", text: "Close" });
    button.addEventListener("click", () => { tell({ type: "close" }); window.close(); });
    return button;
  };
  const api = async (method, path, body) => {
    const response = await fetch(path, {
      method,
      headers: { authorization: "Bearer " + token, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error((answer.error && answer.error.message) || "HTTP " + response.status);
    return answer;
  };

  const chooseApp = (project) => {
    const input = el("input", { id: "app", name: "app", required: true, autocomplete: "off" });
    input.setAttribute("aria-describedby", "app-hint");
    const form = el("form", {},
      el("label", { for: "app", text: "App" }),
      el("span", { id: "app-hint", className: "hint", text: "The app's name slug, such as openweather" }),
      input, el("button", { type: "submit", text: "Continue" }));
    form.addEventListener("submit", (event) => { event.preventDefault(); appSlug = input.value.trim(); start(); });
    show(el("h1", { text: "Connect an account" }), el("p", { className: "muted", text: "for " + project }), form);
  };

  const fieldRow = (index) => {
    const name = el("input", { id: "key-" + index, name: "key-" + index, autocomplete: "off" });
    const value = el("input", { id: "value-" + index, name: "value-" + index, type: "password", autocomplete: "off" });
    return el("div", { className: "row" },
      el("div", {}, el("label", { for: name.id, text: "Field name" }), name),
      el("div", {}, el("label", { for: value.id, text: "Value" }), value));
  };

  const connected = (text) => {
    show(el("h1", { text: "Connected" }), el("p", { className: "done", role: "status", text }), closeButton());
    if (successRedirect && !peer) location.assign(successRedirect);
  };

  /** The OAuth flow in a popup: opened on the click (so it is not blocked), then sent to the provider. */
  const authorize = async (app, body) => {
    const popup = window.open("about:blank", "sluice-connect-oauth", "popup,width=560,height=720");
    if (!popup) throw new Error("Your browser blocked the sign-in window: allow pop-ups for this page and try again");
    let started;
    try {
      started = await api("POST", "/v1/connect/accounts/oauth", body);
    } catch (error) {
      popup.close();
      throw error;
    }
    popup.location.href = started.authorize_url;
    const callbackOrigin = new URL(started.redirect_uri).origin;
    return new Promise((resolve, reject) => {
      const finish = (settle, value) => {
        window.removeEventListener("message", onMessage);
        clearInterval(watch);
        settle(value);
      };
      const onMessage = (event) => {
        if (event.source !== popup || event.origin !== callbackOrigin) return;
        const data = event.data || {};
        if (data.type === "success" && typeof data.authProvisionId === "string") finish(resolve, data.authProvisionId);
        else if (data.type === "error") finish(reject, new Error((data.error && data.error.message) || "The provider did not connect the account"));
      };
      window.addEventListener("message", onMessage);
      // A window closed without an answer: wait a moment, as its last message may still be on its way.
      const watch = setInterval(() => {
        if (!popup.closed) return;
        clearInterval(watch);
        setTimeout(() => finish(reject, new Error("The sign-in window was closed before " + app.name + " was connected")), 1000);
      }, 400);
    });
  };

  const connectForm = (validated) => {
    const app = validated.app;
    const fields = JSON.parse(app.custom_fields_json || "[]");
    const open = app.auth_type === "keys" && fields.length === 0;
    const oauth = app.auth_type === "oauth";
    const form = el("form", { noValidate: true });
    const inputs = [];
    for (const field of fields) {
      const input = el("input", {
        id: "field-" + field.name, name: field.name, required: !field.optional,
        type: field.secret ? "password" : "text", autocomplete: "off",
      });
      inputs.push([field.name, input]);
      form.append(el("label", { for: input.id, text: field.label + (field.optional ? " (optional)" : "") }));
      if (field.description) {
        input.setAttribute("aria-describedby", input.id + "-hint");
        form.append(el("span", { id: input.id + "-hint", className: "hint", text: field.description }));
      }
      form.append(input);
    }
    const rows = el("div");
    if (open) {
      rows.append(fieldRow(0));
      const more = el("button", { type: "button", className: "secondary", text: "Add field" });
      more.addEventListener("click", () => rows.append(fieldRow(rows.children.length)));
      form.append(rows, more);
    }
    const name = el("input", { id: "account-name", name: "account-name", autocomplete: "off", placeholder: app.name });
    form.append(el("label", { for: "account-name", text: "Account name (optional)" }), name);
    const alert = el("p", { role: "alert" });
    const submit = el("button", { type: "submit", text: oauth ? "Continue to " + app.name : "Connect" });
    form.append(submit, alert);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      alert.textContent = "";
      const values = {};
      for (const [field, input] of inputs) if (input.value !== "") values[field] = input.value;
      for (const row of rows.children) {
        const [key, value] = row.querySelectorAll("input");
        if (key.value.trim() !== "") values[key.value.trim()] = value.value;
      }
      submit.disabled = true;
      const body = {
        app_slug: app.name_slug, cfmap_json: JSON.stringify(values), connect_token: token,
        ...(name.value.trim() === "" ? {} : { name: name.value.trim() }),
      };
      try {
        if (oauth) {
          const id = await authorize(app, body);
          tell({ type: "success", authProvisionId: id });
          connected(app.name + " is connected.");
        } else {
          const account = await api("POST", "/v1/connect/accounts", body);
          tell({ type: "success", authProvisionId: account.id });
          connected(app.name + " is connected as " + account.name + ".");
        }
      } catch (error) {
        submit.disabled = false;
        alert.textContent = error.message;
        tell({ type: "error", error: error.message });
      }
    });
    const title = "Connect " + app.name;
    const intro = app.auth_type === "none"
      ? "This app needs no credentials."
      : oauth ? "Sign in to " + app.name + " in the window that opens to connect your account."
      : open ? "Enter the fields this app's components use." : "Enter your " + app.name + " credentials.";
    show(el("h1", { text: title }), el("p", { className: "muted", text: "for " + (validated.project_app_name || "this project") }),
      el("p", { text: intro }), form);
  };

  async function start() {
    if (!token) return fail("This page needs a connect token (?token=ctok_…)");
    let validated;
    try {
      const query = appSlug ? "?app_id=" + encodeURIComponent(appSlug) : "";
      const response = await fetch("/v1/connect/tokens/" + encodeURIComponent(token) + "/validate" + query);
      validated = await response.json();
      if (!response.ok) throw new Error((validated.error && validated.error.message) || "HTTP " + response.status);
    } catch (error) {
      return fail(error.message);
    }
    if (!validated.success) return fail(validated.error);
    successRedirect = validated.success_redirect_uri || null;
    errorRedirect = validated.error_redirect_uri || null;
    if (!appSlug) return chooseApp(validated.project_app_name || "this project");
    connectForm(validated);
  }
  start();
})();
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Connect an account</title>
<style>${STYLE}</style>
</head>
<body>
<main aria-live="polite"><p>Loading…</p></main>
<script>${SCRIPT}</script>
</body>
</html>
`;

export function connectPageRoute(app: FastifyInstance): void {
  app.get(CONNECT_PAGE_PATH, { config: { public: true }, schema: { hide: true } }, (_request, reply) =>
    reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(PAGE),
  );
}
