/**
 * The page the OAuth callback ends with. Opened in a popup, it posts its result to the page that
 * opened it, in Pipedream's shape (`{type: "success", authProvisionId}`, or `{type: "error",
 * error: {code, message}}`), then closes; opened any other way it says what happened. The result
 * is only ever posted to the opener's recorded origin, and the page runs no script but its own.
 */
import { randomBytes } from "node:crypto";
import type { OAuthCallbackOutcome } from "../core/apps/oauth-connections.js";

export interface CallbackPage {
  readonly status: number;
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");

export function callbackPage(outcome: OAuthCallbackOutcome): CallbackPage {
  const nonce = randomBytes(16).toString("base64");
  const message = outcome.ok
    ? { type: "success", authProvisionId: outcome.connectedAccountId }
    : { type: "error", error: { code: outcome.code, message: outcome.message } };
  const title = outcome.ok ? "Connected" : "Could not connect";
  const text = outcome.ok
    ? `Connected ${outcome.app}: connected account ${outcome.connectedAccountId}. You can close this window.`
    : outcome.message;
  const script = outcome.openerOrigin
    ? `<script nonce="${nonce}">
(function () {
  var message = ${scriptJson(message)};
  if (window.opener) {
    window.opener.postMessage(message, ${scriptJson(outcome.openerOrigin)});
    ${outcome.ok ? "window.close();" : ""}
  }
})();
</script>`
    : "";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Sluice</title>
<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style>
</head>
<body>
<h1>${title}</h1>
<p id="result" data-code="${outcome.ok ? "success" : escapeHtml(outcome.code)}">${escapeHtml(text)}</p>
${script}
</body>
</html>
`;
  return {
    status: outcome.ok ? 200 : outcome.code === "oauth_token_failed" ? 502 : 400,
    html,
    contentSecurityPolicy: `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}
