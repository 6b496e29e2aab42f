/** What the end-to-end tests deploy: a source with every static prop type, a failing workflow. */

/** An HTTP source with string, secret, integer (1–10), boolean, options, object and array props. */
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
