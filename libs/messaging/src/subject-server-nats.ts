import { ServerNats } from '@nestjs/microservices';
import type { NatsConnection } from 'nats';

/**
 * Nest's NATS server for handlers registered under plain subjects, started
 * only once its subscriptions are live. Nest reads each arriving subject as
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

  protected override getRouteFromPattern(pattern: string): string {
    return this.messageHandlers.has(pattern) ? pattern : super.getRouteFromPattern(pattern);
  }
}
