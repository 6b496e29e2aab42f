/** Until core imports store/dialect/capabilities.ts directly: the capability flags, as before. */
export type { DialectCapabilities } from "./dialect/capabilities.js";
