/**
 * What the Node running the server can do for a runner, found by asking it rather than by reading
 * its version: the flags a child of this `node` accepts are `process.allowedNodeEnvironmentFlags`.
 * Node 20 names the permission model `--experimental-permission`; Node 22 accepts that and
 * `--permission`; Node 24 accepts only `--permission` (and refuses to start with the old name).
 */

/** The flags of this `node` that NODE_OPTIONS, and so a forked child's execArgv, accept. */
const allowed: ReadonlySet<string> = process.allowedNodeEnvironmentFlags;

/**
 * The flag that turns the permission model on. Without it a runner would read the whole disk, so
 * a `node` that has neither name cannot run components: that is an error, never a silent fallback.
 */
export function permissionFlag(flags: ReadonlySet<string> = allowed): string {
  if (flags.has("--permission")) return "--permission";
  if (flags.has("--experimental-permission")) return "--experimental-permission";
  throw new Error(
    `this Node.js (${process.version}) has no permission model (--permission); components cannot be sandboxed`,
  );
}

/**
 * The flags that hide the warnings a runner would otherwise print to its stderr on start-up (the
 * permission model is still "experimental" on Node 20). Only flags this `node` knows are given.
 */
export function quietWarningFlags(flags: ReadonlySet<string> = allowed): string[] {
  return flags.has("--disable-warning") ? ["--disable-warning=ExperimentalWarning"] : [];
}
