/** What core operations on components and sources need: the store and the runtime's parts. */
import type { Compiler } from "../runtime/compile/compiler.js";
import type { Sandbox } from "../runtime/sandbox/sandbox.js";
import type { Store } from "../store/store.js";
import type { ActionSender } from "./actions/action-sends.js";
import type { OAuthRuntime } from "./apps/oauth-runtime.js";
import type { NodeCaches } from "./node-cache.js";
import type { CodeFetcher } from "./outbound/fetch-code.js";
import type { SecretBox } from "./secret-box.js";
import type { SourceLanes } from "./sources/lane.js";

export interface CoreContext {
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly compiler: Compiler;
  readonly sandbox: Sandbox;
  readonly fetchCode: CodeFetcher;
  /** Performs actions' queued `$.send.*` calls (HTTP through the SSRF guard, email over SMTP). */
  readonly sender: ActionSender;
  /** Unpacks an npm package (`name@version`) into a directory, for imports of Pipedream-layout packages. */
  readonly fetchPackage: (spec: string, dest: string) => Promise<void>;
  /** Public URL of the server, for source endpoint URLs and the OAuth callback. */
  readonly baseUrl: string;
  /** OAuth's token requests (through the SSRF guard) and how long a connection's state lives. */
  readonly oauth: OAuthRuntime;
  /** This node's source lanes: the order, state and commits of each source's invocations. */
  readonly lanes: SourceLanes;
  /** This node's caches of what hot paths read (runnable sources, workflows), each dropped by its topic. */
  readonly caches: NodeCaches;
}
