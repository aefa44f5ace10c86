import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { EVENTS_CONFIG, type EventsConfig } from './events.config';
import { KEEP_ALIVE } from './sse';

interface Writable {
  write(chunk: string): boolean;
}

/** One timer for every open stream on this gateway (not one per stream), writing a comment to each. */
@Injectable()
export class KeepAlive implements OnApplicationShutdown {
  private readonly streams = new Set<Writable>();
  private timer?: NodeJS.Timeout;

  constructor(@Inject(EVENTS_CONFIG) private readonly config: EventsConfig) {}

  add(stream: Writable): () => void {
    this.streams.add(stream);
    this.timer ??= setInterval(() => {
      for (const open of this.streams) open.write(KEEP_ALIVE);
    }, this.config.keepAliveMs);
    return () => {
      this.streams.delete(stream);
      if (this.streams.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
