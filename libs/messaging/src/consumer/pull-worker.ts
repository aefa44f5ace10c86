import { Logger } from '@nestjs/common';
import type { Consumer, JetStreamClient, JsMsg } from 'nats';
import { runWithRequestId } from '@transmute/service-kit';
import type { WorkConsumerDefinition } from '../jetstream-setup';
import { requestIdFrom } from '../request-id-headers';

export type MessageHandler = (message: JsMsg, signal: AbortSignal) => Promise<void>;

const PULL_EXPIRES_MS = 2_000;

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The ConsumerRunner's pull loop: one message per free slot from a durable
 * consumer, so nothing waits in a local buffer while every slot is busy. The
 * runner settles each message; on stop, handlers still running past the
 * grace period are aborted (the runner gives their message back), and a
 * message pulled while stopping is given back at once. Each handler runs
 * inside the request id its message carries (a fresh one when it has none).
 */
export class PullWorker {
  private readonly logger: Logger;
  private readonly inFlight = new Set<InFlight>();
  private slots: Promise<void>[] = [];
  private stopping = false;

  constructor(
    private readonly js: JetStreamClient,
    private readonly definition: WorkConsumerDefinition,
    private readonly concurrency: number,
    private readonly handler: MessageHandler,
  ) {
    this.logger = new Logger(`pull:${definition.durable}`);
  }

  async start(): Promise<void> {
    const consumer = await this.js.consumers.get(this.definition.stream.name, this.definition.durable);
    this.slots = Array.from({ length: this.concurrency }, () => this.runSlot(consumer));
    this.logger.log(`consuming ${this.definition.filterSubject} with ${this.concurrency} slot(s)`);
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    const drained = Promise.all(this.slots).then(() => true);
    const timedOut = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
    // Idle slots sit in a pull for up to PULL_EXPIRES_MS; only messages in hand need releasing.
    if (!(await Promise.race([drained, timedOut])) && this.inFlight.size > 0) {
      this.logger.warn(`releasing ${this.inFlight.size} message(s) still in hand after ${graceMs} ms`);
      for (const task of this.inFlight) task.controller.abort();
      await Promise.all([...this.inFlight].map((task) => task.done));
    }
  }

  private async runSlot(consumer: Consumer): Promise<void> {
    while (!this.stopping) {
      let message: JsMsg | null;
      try {
        message = await consumer.next({ expires: PULL_EXPIRES_MS });
      } catch (error) {
        if (this.stopping) return;
        this.logger.warn(`pull failed: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      if (!message) continue;
      if (this.stopping) {
        message.nak();
        return;
      }
      const controller = new AbortController();
      const task: InFlight = { controller, done: this.settle(message, controller.signal) };
      this.inFlight.add(task);
      await task.done;
      this.inFlight.delete(task);
    }
  }

  private async settle(message: JsMsg, signal: AbortSignal): Promise<void> {
    try {
      await runWithRequestId(requestIdFrom(message.headers), () => this.handler(message, signal));
    } catch (error) {
      // The runner settles every message itself; a throw here is a bug, and the message comes back after the ack wait.
      this.logger.error({ err: error }, `message ${message.seq} left unsettled`);
    }
  }
}
