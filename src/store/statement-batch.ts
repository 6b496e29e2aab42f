/** Until core imports store/dialect/postgres/statement-batch.ts directly. */
export { rolledBack, type StatementBatch } from "./dialect/postgres/statement-batch.js";
