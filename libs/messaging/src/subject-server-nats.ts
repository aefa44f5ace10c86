import { ServerNats } from '@nestjs/microservices';

/**
 * Nest's NATS server for handlers registered under plain subjects. Nest
 * reads each arriving subject as a JSON pattern first (`JSON.parse`), which
 * for a subject like `jobs.create` throws, builds a SyntaxError with its
 * stack, and only then falls back to the subject itself: on every request.
 */
export class SubjectServerNats extends ServerNats {
  protected override getRouteFromPattern(pattern: string): string {
    return this.messageHandlers.has(pattern) ? pattern : super.getRouteFromPattern(pattern);
  }
}
