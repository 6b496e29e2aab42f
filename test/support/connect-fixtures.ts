/**
 * The components a Connect project of the tests offers (published by the project's account): an
 * action and an HTTP trigger of a registered keys app, `connect_vault`, whose `room` prop's remote
 * options come from the connected account's `$auth`, and a source whose props reload
 * (additionalProps, one prop per column of its header row).
 */

/** The app the fixtures connect to: a user name and a comma-separated list of rooms. */
export const VAULT_APP = {
  slug: "connect_vault",
  name: "Connect Vault",
  auth_type: "keys",
  fields: [
    { name: "user", label: "User" },
    { name: "rooms", label: "Rooms", description: "comma-separated", secret: true },
  ],
} as const;

export const GREET_ACTION = `export default {
  key: "connect_vault-greet",
  name: "Greet",
  version: "0.1.0",
  description: "Greets someone as the vault's user",
  type: "action",
  props: {
    vault: { type: "app", app: "connect_vault", label: "Vault" },
    name: { type: "string", label: "Name" },
    style: {
      type: "string",
      label: "Style",
      useQuery: true,
      async options({ query }) {
        return ["plain", "loud"].filter((style) => style.startsWith(query ?? ""));
      },
    },
  },
  async run({ $ }) {
    console.log("greeting " + this.name);
    $.export("$summary", "Greeted " + this.name);
    $.export("greeting_length", this.name.length);
    return { text: "Hello, " + this.name + (this.style === "loud" ? "!" : "."), vaultUser: this.vault.$auth.user };
  },
};
`;

export const MESSAGE_TRIGGER = `const vault = {
  type: "app",
  app: "connect_vault",
  propDefinitions: {
    room: {
      type: "string",
      label: "Room",
      withLabel: true,
      async options() {
        return this.$auth.rooms.split(",").map((room) => ({ label: "#" + room, value: room }));
      },
    },
  },
};
export default {
  key: "connect_vault-new-message",
  name: "New message",
  version: "0.1.0",
  description: "Emits each message posted to the trigger's URL",
  type: "source",
  props: {
    vault,
    http: { type: "$.interface.http" },
    room: { propDefinition: [vault, "room"] },
  },
  hooks: {
    async deploy() {
      this.$emit({ kind: "deployed", room: this.room }, { id: "deployed", summary: "deployed" });
    },
  },
  async run(event) {
    this.$emit({ kind: "message", room: this.room, text: event.body.text }, { summary: event.body.text });
  },
};
`;

export const SHEET_TRIGGER = `export default {
  key: "connect_vault-new-row",
  name: "New row",
  version: "0.1.0",
  description: "A prop per column of the header row",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    headerRow: { type: "string", label: "Header row", optional: true, reloadProps: true },
  },
  async additionalProps() {
    const props = {};
    for (const column of (this.headerRow ?? "").split(",").filter(Boolean)) {
      props[column] = { type: "string", label: column.toUpperCase() };
    }
    return props;
  },
  async run(event) {
    this.$emit({ headerRow: this.headerRow });
  },
};
`;
