/**
 * `defineComponent`, `defineSource`, `defineAction` and `defineApp` as globals. Pipedream's
 * runtime provides them without an import (`export default defineComponent({...})`); esbuild's
 * `inject` binds each one the component uses but does not declare or import to an identity
 * function, and adds nothing to components that do not use them.
 */

import type { Plugin } from "esbuild";

/** The module to list in esbuild's `inject` option, served by `identityHelpersPlugin`. */
export const IDENTITY_HELPERS_MODULE = "sluice:identity-helpers";

const NAMESPACE = "sluice";

const SOURCE = ["defineComponent", "defineSource", "defineAction", "defineApp"]
  .map((name) => `export const ${name} = (definition) => definition;`)
  .join("\n");

export const identityHelpersPlugin: Plugin = {
  name: "sluice-identity-helpers",
  setup(build) {
    build.onResolve({ filter: /^sluice:identity-helpers$/ }, (args) => ({
      path: args.path,
      namespace: NAMESPACE,
    }));
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({ contents: SOURCE, loader: "js" }));
  },
};
