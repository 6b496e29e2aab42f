// Which Node.js lines Sluice runs on, checked before anything that an older Node could not even
// load. CommonJS and plain syntax on purpose: it must parse and run on the oldest Node there is.
"use strict";
const semver = require("semver");
const { engines } = require("../package.json");

/** The lines the test suite runs on; the README and docs/operations.md name the same. */
const TESTED = "Node.js 20 (20.18 or later), 22 or 24";

/** Why this Node cannot run Sluice, or undefined when it can. */
function unsupportedNode(version) {
  if (semver.satisfies(version, engines.node)) return undefined;
  return (
    "Sluice does not run on Node.js " +
    version +
    ". It runs on " +
    TESTED +
    " (package.json engines: " +
    engines.node +
    "). Install one of those and start it again."
  );
}

module.exports = { unsupportedNode, TESTED };
