#!/usr/bin/env node
// The `sluice` command. The CLI is written in TypeScript and compiled to dist/ by `npm run build`
// (which `npm ci` runs through the `prepare` script). It is loaded only once this Node is known to
// be one Sluice runs on: an older one gets a clear error instead of a server that half works.
import { createRequire } from "node:module";

const { unsupportedNode } = createRequire(import.meta.url)("./node-support.cjs");
const unsupported = unsupportedNode(process.version);
if (unsupported !== undefined) {
  process.stderr.write(`error: ${unsupported}\n`);
  process.exit(1);
}
await import("../dist/cli/main.js");
