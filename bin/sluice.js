#!/usr/bin/env node
// The `sluice` command. The CLI is written in TypeScript and compiled to dist/ by `npm run build`
// (which `npm ci` runs through the `prepare` script).
import "../dist/cli/main.js";
