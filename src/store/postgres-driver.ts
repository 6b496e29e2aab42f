/** Until core imports store/dialect/postgres/driver.ts directly. */
export { endingTransaction } from "./dialect/postgres/driver.js";
