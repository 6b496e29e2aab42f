/**
 * The invocations on their way to one runner, sent together. Under load many requests for the
 * sources of one runner arrive in one turn of the event loop; each invoke written alone to the
 * IPC channel is a system call that wakes the runner (measured at 14% of the server's main thread
 * at 5,000 requests a second). The outbox keeps the invokes of one turn and writes them as one
 * message once the turn's input is read (`setImmediate`), in the order they came.
 *
 * Any other message to the runner goes after the invokes queued before it (`flush` first), so the
 * runner sees everything in the order the parent meant it: a `forget` never overtakes an invoke
 * sent before it.
 */
import type { InvokeBatchMessage, InvokeMessage, ParentMessage } from "./protocol.js";

export interface OutboxTarget {
  /** Writes one message to the runner; throws only when it cannot be serialized. */
  send(message: ParentMessage): void;
  /** `message` could not be serialized: its invocation fails with `reason`. */
  unsendable(message: InvokeMessage, reason: string): void;
  /**
   * `message` comes without its instance's state, and the invocation that was to bring that state
   * could not be sent: the runner does not hold it, so this one must not start there.
   */
  stateLost(message: InvokeMessage): void;
}

export class InvokeOutbox {
  private queued: InvokeMessage[] = [];
  private scheduled = false;

  constructor(private readonly target: OutboxTarget) {}

  /** Queues an invoke; it goes out at the end of this turn of the event loop, or with the next flush. */
  invoke(message: InvokeMessage): void {
    this.queued.push(message);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Sends the queued invokes now: in one message when there are several. */
  flush(): void {
    const messages = this.queued;
    if (messages.length === 0) return;
    this.queued = [];
    if (messages.length === 1) {
      this.sendEach(messages);
      return;
    }
    try {
      this.target.send({ t: "invoke_batch", messages } satisfies InvokeBatchMessage);
    } catch {
      // One of them is not JSON (a caller's bug): send them one by one, so only that one fails.
      this.sendEach(messages);
    }
  }

  private sendEach(messages: readonly InvokeMessage[]): void {
    const lost = new Set<string>();
    for (const message of messages) {
      const key = message.instance ?? "";
      if (message.db === undefined && lost.has(key)) {
        this.target.stateLost(message);
        continue;
      }
      try {
        this.target.send(message);
        if (message.db !== undefined) lost.delete(key);
      } catch (error) {
        this.target.unsendable(message, error instanceof Error ? error.message : String(error));
        if (message.db !== undefined) lost.add(key);
      }
    }
  }
}
