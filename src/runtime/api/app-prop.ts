/**
 * An `app` prop inside the runner: the app object the component declared (`{ type: "app", app,
 * propDefinitions, methods }`) with `$auth` set to the connected account's credentials and its
 * methods bound to it, so that app methods reach `this.$auth` and each other, and the component
 * calls `this.<appProp>.<method>()`.
 */
import { functionsOf, isRecord, type UnknownRecord } from "./component-object.js";

export function createAppObject(definition: unknown, auth: Record<string, unknown>): UnknownRecord {
  const app: UnknownRecord = {};
  if (isRecord(definition)) {
    for (const [key, value] of Object.entries(definition)) {
      if (key !== "methods") app[key] = value;
    }
  }
  app.$auth = auth;
  for (const [name, method] of functionsOf(isRecord(definition) ? definition.methods : undefined)) {
    app[name] = method.bind(app);
  }
  return app;
}
