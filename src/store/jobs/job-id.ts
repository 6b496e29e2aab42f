/** A new job's id: `job_` and the time-ordered part every id has (store/row-ids.ts). */
import { newUlid } from "../row-ids.js";

export function newJobId(): string {
  return `job_${newUlid()}`;
}
