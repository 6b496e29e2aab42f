/**
 * The invokes on their way to one runner: those of one turn of the event loop go as one message,
 * one write and one wake-up of the runner instead of one each. Any other message flushes them
 * first, so a `forget` never overtakes an invoke sent before it.
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
