/** What the end-to-end tests deploy: a source with every static prop type, a failing workflow. */

/**
 * An HTTP source with string, secret, integer (1–10), boolean, options, object and array props;
 * each run logs "greeted <message>" and emits.
 */
export const GREETER_SOURCE = `export default {
  key: "e2e-greeter",
  name: "E2E greeter",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    greeting: { type: "string", label: "Greeting", description: "Put in front of every event" },
    token: { type: "string", secret: true, label: "Token", optional: true },
    count: { type: "integer", label: "Count", min: 1, max: 10, optional: true, default: 1 },
    loud: { type: "boolean", label: "Loud", optional: true },
    color: { type: "string", label: "Color", options: ["red", "green", "blue"], optional: true },
    settings: { type: "object", label: "Settings", optional: true },
    tags: { type: "string[]", label: "Tags", optional: true },
  },
  async run(event) {
    const body = event.body ?? {};
    console.log("greeted " + (body.message ?? "no message"));
    this.$emit(
      { greeting: this.greeting, count: this.count, body },
      { summary: this.greeting + ": " + (body.message ?? "no message") },
    );
  },
};
`;

/** A workflow whose second step throws, so its run fails with a step error and a stack. */
export const FAILING_WORKFLOW = `name: e2e-failing
trigger:
  http: {}
steps:
  - name: prepare
    code: |
      export default {
        type: "action",
        async run({ steps }) {
          return { ok: true };
        },
      };
  - name: explode
    code: |
      export default {
        type: "action",
        async run({ steps }) {
          throw new Error("the order total is missing");
        },
      };
`;

export const BROKEN_YAML = `name: e2e-broken
steps:
  - name: one
    code: "unterminated
`;

/**
 * A source with an app prop for an app nobody registered (e2e-vault) and a prop whose options
 * load from the component: searched with useQuery, three per page, the next page found from
 * prevContext (a page asked for without it fails).
 */
export const REGIONS_SOURCE = `const CITIES = ["Amsterdam", "Berlin", "Bordeaux", "Boston", "Brussels", "Budapest", "Bogota", "Cairo", "Bern", "Dublin"];
export default {
  key: "e2e-regions",
  name: "E2E regions",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    vault: { type: "app", app: "e2e-vault", label: "Vault" },
    region: {
      type: "string",
      label: "Region",
      useQuery: true,
      async options({ page, prevContext, query }) {
        const start = page === 0 ? 0 : prevContext?.nextPageToken;
        if (typeof start !== "number") throw new Error("page " + page + " asked for without prevContext");
        const matching = CITIES.filter((city) => city.toLowerCase().startsWith((query ?? "").toLowerCase()));
        const options = matching.slice(start, start + 3).map((city) => ({ label: city, value: city.toLowerCase() }));
        const next = start + 3 < matching.length ? start + 3 : undefined;
        return { options, context: next === undefined ? {} : { nextPageToken: next } };
      },
    },
  },
  async run(event) {
    this.$emit({ region: this.region }, { summary: this.region });
  },
};
`;

/** additionalProps: a prop per column of the header row (reloadProps), a ConfigurationError without one. */
export const SHEET_SOURCE = `import { ConfigurationError } from "@pipedream/platform";
export default {
  key: "e2e-sheet",
  name: "E2E sheet",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    headerRow: { type: "string", label: "Header row", optional: true, reloadProps: true },
  },
  async additionalProps() {
    if (!this.headerRow) throw new ConfigurationError("The sheet has no header row: add one in row 1");
    const props = {};
    for (const column of this.headerRow.split(",")) props[column] = { type: "string", label: column.toUpperCase() };
    return props;
  },
  async run(event) {
    this.$emit({ headerRow: this.headerRow });
  },
};
`;

/** An app prop for a registered keys app (e2e-weather: a secret api_key and optional units). */
export const WEATHER_SOURCE = `export default {
  key: "e2e-weather",
  name: "E2E weather",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    weather: { type: "app", app: "e2e-weather", label: "Weather" },
  },
  async run(event) {
    this.$emit({ units: this.weather.$auth.units ?? null });
  },
};
`;

/**
 * additionalProps with no reloadProps prop: an app prop (e2e-vault), a remote-options prop, and the
 * props the component adds (a channel, named after the vault's account), which the form asks for as it shows.
 */
export const DISPATCH_SOURCE = `export default {
  key: "e2e-dispatch",
  name: "E2E dispatch",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    vault: { type: "app", app: "e2e-vault", label: "Vault" },
    region: {
      type: "string",
      label: "Region",
      async options() {
        return ["north", "south", "east", "west"].map((value) => ({ label: value.toUpperCase(), value }));
      },
    },
  },
  async additionalProps() {
    return {
      channel: { type: "string", label: "Channel", description: "Where dispatches go" },
      retries: { type: "integer", label: "Retries", optional: true, min: 0, max: 5 },
    };
  },
  async run(event) {
    this.$emit({ region: this.region, channel: this.channel, retries: this.retries ?? null });
  },
};
`;

/** A data_store prop and an http_request prop (Pipedream's "HTTP Request Configuration"), POST by default. */
export const NOTIFY_SOURCE = `export default {
  key: "e2e-notify",
  name: "E2E notify",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    orders: { type: "data_store", label: "Orders" },
    request: { type: "http_request", label: "Request", default: { method: "POST" } },
  },
  async run(event) {
    await this.orders.set("last", event.body ?? null);
    this.$emit({ url: this.request.url ?? null });
  },
};
`;
