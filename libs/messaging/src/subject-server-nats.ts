import { ServerNats } from '@nestjs/microservices';
import type { Msg, NatsConnection } from 'nats';
import { runWithRequestId } from '@transmute/service-kit';
import { requestIdFrom } from './request-id-headers';

/**
 * Nest's NATS server for handlers registered under plain subjects, started
 * only once its subscriptions are live, running each handler inside the
 * request id its message carries (a fresh one when it carries none), so its
 * log lines and onward messages name it. Nest reads each arriving subject as
 * a JSON pattern first (`JSON.parse`), which for a subject like
 * `jobs.create` throws, builds a SyntaxError with its stack, and only then
 * falls back to the subject itself: on every request.
 */
export class SubjectServerNats extends ServerNats {
  /**
   * Started once the NATS server holds the subscriptions, not when they are
   * sent: a request from another connection right after the start would
   * otherwise meet no responders (503), as a test once did.
   */
  override start(callback: (error?: unknown) => void): void {
    const client = this.unwrap<NatsConnection>();
    this.bindEvents(client);
    client.flush().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  /**
   * Where the message arrives, as the consumers do (PullWorker), rather than
   * in a global interceptor: any interceptor puts every HTTP request and RPC
   * of the service through Nest's interceptor chain (an AsyncResource bound
   * per call, an rxjs pipeline), HTTP requests included, which have no use
   * for it.
   */
  override handleMessage(channel: string, natsMsg: Msg): Promise<unknown> {
    return runWithRequestId(requestIdFrom(natsMsg.headers), () => super.handleMessage(channel, natsMsg));
  }

  protected override getRouteFromPattern(pattern: string): string {
    return this.messageHandlers.has(pattern) ? pattern : super.getRouteFromPattern(pattern);
  }
}
