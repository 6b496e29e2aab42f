/**
 * Dynamic props, with Pipedream Connect's shapes (the web UI's configuration form calls these):
 * `POST /v1/components/configure` fetches one page of a prop's options, `POST /v1/components/props`
 * runs additionalProps and answers a `dyp_` id with the resulting configurable props.
 */
import type { FastifyInstance } from "fastify";
import {
  type ConfigureInput,
  configureProp,
  reloadComponentProps,
} from "../../core/components/dynamic-props.js";
import type { CoreContext } from "../../core/context.js";
import { reloadedPropsAnswer, sandboxAnswer } from "./component-schemas.js";
import { routeGroup } from "./route-group.js";

const target = {
  id: { type: "string", description: "a component key, a saved component id (sc_…) or a source id (dc_…)" },
  configured_props: {
    type: "object",
    additionalProperties: true,
    description: "the props configured so far; an app prop as {authProvisionId: apn_…}",
  },
  dynamic_props_id: { type: "string", description: "dyp_… from POST /v1/components/props" },
} as const;

export function dynamicPropsRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "components");
  route.post<{ Body: ConfigureInput }>("/components/configure", {
    operationId: "configureComponentProp",
    summary: "Fetch one page of a prop's options (async options, propDefinition), run in the sandbox",
    body: {
      type: "object",
      properties: {
        ...target,
        prop_name: { type: "string" },
        query: { type: "string", description: "the user's text, for a prop with useQuery" },
        page: { type: "integer", minimum: 0, description: "numeric pagination, from 0" },
        prev_context: { description: "the context of the previous page, for token pagination" },
      },
      required: ["id", "prop_name"],
    },
    response: sandboxAnswer({
      options: {
        type: ["array", "null"],
        items: { type: "object", properties: { label: { type: "string" }, value: {} } },
      },
      stringOptions: { type: ["array", "null"], items: { type: "string" } },
      context: {},
    }),
    handler: async (request) => configureProp(context, request.account.id, request.body),
  });

  route.post<{ Body: ConfigureInput }>("/components/props", {
    operationId: "reloadComponentProps",
    summary: "Run a component's additionalProps with the props configured so far; answers a dyp_ id",
    body: { type: "object", properties: target, required: ["id"] },
    response: reloadedPropsAnswer({ type: "object", additionalProperties: true }),
    handler: async (request) => reloadComponentProps(context, request.account.id, request.body),
  });
}
