/**
 * The network-namespace mode (SLUICE_SANDBOX_NETWORK=namespace): each runner starts in a network
 * namespace of its own (`unshare --net`, which needs Linux and root), where there is no route at
 * all; its connections go through the server (egress-tunnel.ts), which applies the policy. Then a
 * component that got past the JavaScript guard would still find no network to reach.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";

/** Where util-linux installs `unshare` (looked up there only: the server's PATH is not trusted). */
const UNSHARE_PATHS = ["/usr/bin/unshare", "/bin/unshare", "/usr/local/bin/unshare"];

export type SandboxNetworkMode = "guard" | "namespace";

/** How a runner is started in its own network namespace: `unshare --net -- node …`. */
export interface NamespaceLauncher {
  readonly execPath: string;
  readonly execArgvPrefix: readonly string[];
}

/**
 * Checks that this machine can start runners in a namespace of their own, by starting one empty
 * namespace; throws an Error that says what is missing.
 */
export function namespaceLauncher(): NamespaceLauncher {
  const explain = (why: string) =>
    new Error(
      `SLUICE_SANDBOX_NETWORK=namespace needs Linux, root (CAP_SYS_ADMIN) and util-linux's unshare: ${why}. ` +
        "Use SLUICE_SANDBOX_NETWORK=guard (the default) elsewhere.",
    );
  if (process.platform !== "linux") throw explain(`this is ${process.platform}`);
  const unshare = UNSHARE_PATHS.find((file) => fs.existsSync(file));
  if (unshare === undefined) throw explain("no unshare command was found");
  const trial = spawnSync(unshare, ["--net", "--", process.execPath, "-e", "0"], {
    encoding: "utf8",
    timeout: 10_000,
  });
  if (trial.status !== 0)
    throw explain(`\`unshare --net\` failed: ${(trial.stderr || trial.error?.message || "").trim()}`);
  return { execPath: unshare, execArgvPrefix: ["--net", "--", process.execPath] };
}
