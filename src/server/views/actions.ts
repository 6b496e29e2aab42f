/** The REST API's shapes of actions (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { ActionRun } from "../../core/actions/actions.js";
import type { HttpResponse } from "../../runtime/sandbox/sandbox.js";

/** The run as the API shows it. */
export function actionRunView(run: ActionRun) {
  const { result, component } = run;
  return {
    component_id: component.id,
    component_key: component.key,
    component_version: component.version,
    ok: result.ok,
    return_value: result.returnValue ?? null,
    exports: result.exports ?? {},
    summary: result.summary ?? null,
    logs: result.logs,
    flow_exit: result.flowExit ?? null,
    respond: result.response ? responseView(result.response) : null,
    sends: run.sends,
    duration_ms: Math.round(result.durationMs),
    failure: result.failure ?? null,
  };
}

/** The body as it was given: JSON as the value, text as text, other bytes as base64. */
function responseView(response: HttpResponse) {
  const bytes = Buffer.from(response.body);
  let body: unknown;
  let encoding: "utf8" | "base64" = "utf8";
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (response.isJson) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  } else if (Buffer.from(text, "utf8").equals(bytes)) {
    body = text;
  } else {
    body = bytes.toString("base64");
    encoding = "base64";
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    ...(encoding === "base64" ? { body_encoding: encoding } : {}),
    immediate: response.immediate === true,
  };
}
