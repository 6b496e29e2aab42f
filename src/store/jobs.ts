/** Until core imports store/jobs/contract.ts directly: the jobs table's contract, as before. */
export { toClaimedJob } from "./jobs/claimed-job.js";
export type {
  ClaimedJob,
  ClaimOptions,
  GroupLimitColumn,
  JobQueue,
  Lease,
  NewJob,
  Turn,
} from "./jobs/contract.js";
