import { Logger } from '@nestjs/common';
import { type Consumer, ErrorCode, type JetStreamClient, type JsMsg } from 'nats';
import { Counter, register } from 'prom-client';
import { runWithRequestId } from '@transmute/service-kit';
import type { WorkConsumerDefinition } from '../jetstream-setup';
import { requestIdFrom } from '../request-id-headers';

export type MessageHandler = (message: JsMsg, signal: AbortSignal) => Promise<void>;

const PULL_EXPIRES_MS = 2_000;

const failedPulls =
  (register.getSingleMetric('transmute_pulls_failed_total') as Counter<string> | undefined) ??
  new Counter({
    name: 'transmute_pulls_failed_total',
    help: 'Pulls of a work consumer that failed (NATS unreachable, the consumer gone, the connection closed), by consumer',
    labelNames: ['consumer'],
  });

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The ConsumerRunner's pull loop. Each pull asks a durable consumer for as
 * many messages as there are free slots, and its messages start as they
 * arrive, so nothing waits in a local buffer while every slot is busy, and
 * one pull (one subscription) serves many messages when work is flowing.
 * The runner settles each message; on stop, handlers still running past the
 * grace period are aborted (the runner gives their message back), and a
 * message pulled while stopping is given back at once. Each handler runs
 * inside the request id its message carries (a fresh one when it has none).
 */
export class PullWorker {
  private readonly logger: Logger;
  private readonly inFlight = new Set<InFlight>();
  private loop: Promise<void> = Promise.resolve();
  private slotFreed?: () => void;
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
    this.loop = this.run(consumer);
    this.logger.log(`consuming ${this.definition.filterSubject} with ${this.concurrency} slot(s)`);
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.slotFreed?.();
    // The open pull is left to expire, not closed: the server would still fill it, and what it sent
    // to a closed inbox would wait out the ack wait. What it brings meanwhile is given back (begin).
    const drained = Promise.all([this.loop, ...[...this.inFlight].map((task) => task.done)]).then(() => true);
    const timedOut = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
    if (!(await Promise.race([drained, timedOut])) && this.inFlight.size > 0) {
      this.logger.warn(`releasing ${this.inFlight.size} message(s) still in hand after ${graceMs} ms`);
      for (const task of this.inFlight) task.controller.abort();
      await Promise.all([...this.inFlight].map((task) => task.done));
    }
  }

  private async run(consumer: Consumer): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.inFlight.size;
      if (free === 0) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      try {
        const messages = await consumer.fetch({ max_messages: free, expires: PULL_EXPIRES_MS });
        // At most `free` arrive, and slots only come free meanwhile: every message starts at once.
        for await (const message of messages) this.begin(message);
      } catch (error) {
        if (this.stopping) return;
        failedPulls.inc({ consumer: this.definition.durable });
        if ((error as { code?: string }).code === ErrorCode.ConnectionClosed) {
          // It never reopens (services reconnect for ever, so this is a stop without stop()); readiness reports it.
          this.logger.warn('stopped pulling: the NATS connection is closed');
          return;
        }
        this.logger.warn(`pull failed: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  private begin(message: JsMsg): void {
    if (this.stopping) {
      // Back once this pull has expired, so it goes to another worker rather than round this one again.
      message.nak(PULL_EXPIRES_MS);
      return;
    }
    const controller = new AbortController();
    const task: InFlight = {
      controller,
      done: this.settle(message, controller.signal).finally(() => {
        this.inFlight.delete(task);
        this.slotFreed?.();
        this.slotFreed = undefined;
      }),
    };
    this.inFlight.add(task);
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
