import { type IncomingHttpHeaders, request } from 'node:http';

/** One parsed server-sent event. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  /** When it arrived (ms since epoch), for ordering and latency checks. */
  at: number;
}

/**
 * A text/event-stream reader over node:http (fetch hides comments from no
 * one, but node:http lets us keep the raw socket small and count bytes).
 * Keeps every event and comment; `next()` waits for the next event.
 */
export class SseStream {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: IncomingHttpHeaders = {};
  /** Resolves when the server ends the stream (or the connection breaks). */
  readonly ended: Promise<void>;
  private endedFlag = false;
  private waiters: Array<() => void> = [];
  private buffer = '';
  private read = 0;
  private destroy: () => void = () => undefined;
  private resolveEnded!: () => void;
  /** The body of a non-200 answer. */
  errorBody = '';

  constructor() {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  get isEnded(): boolean {
    return this.endedFlag;
  }

  static open(url: string, headers: Record<string, string>): Promise<SseStream> {
    const stream = new SseStream();
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
        stream.status = res.statusCode ?? 0;
        stream.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (stream.status === 200 ? stream.feed(chunk) : (stream.errorBody += chunk)));
        res.on('end', () => stream.finish());
        res.on('close', () => stream.finish());
        res.on('error', () => stream.finish());
        resolve(stream);
      });
      stream.destroy = () => req.destroy();
      req.on('error', (error) => {
        stream.finish();
        reject(error);
      });
      req.end();
    });
  }

  /** The next event not yet returned by next(); fails after timeoutMs or when the stream ends first. */
  async next(timeoutMs = 30_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.events.length) {
      if (this.endedFlag) throw new Error(`the stream ended after ${this.events.length} event(s)`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms (had ${this.events.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events[this.read++]!;
  }

  /** Every event until the server closes the stream. */
  async rest(timeoutMs = 60_000): Promise<SseEvent[]> {
    const start = this.read;
    await Promise.race([this.ended, new Promise((_, reject) => setTimeout(() => reject(new Error(`the stream did not end within ${timeoutMs} ms`)), timeoutMs).unref())]);
    this.read = this.events.length;
    return this.events.slice(start);
  }

  close(): void {
    this.destroy();
    this.finish();
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let boundary: number;
    while ((boundary = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, boundary);
      this.buffer = this.buffer.slice(boundary + 2);
      this.parse(block);
    }
  }

  private parse(block: string): void {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    let isEvent = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else continue;
      isEvent = field === 'data' || isEvent;
    }
    if (!isEvent) return;
    this.events.push({ id, event, data: data.join('\n'), at: Date.now() });
    this.wake();
  }

  private finish(): void {
    if (this.endedFlag) return;
    this.endedFlag = true;
    this.resolveEnded();
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

/** GET /v1/process/jobs/{jobId}/events on `baseUrl` with the key (and Last-Event-ID when given). */
export function openJobEvents(baseUrl: string, apiKey: string | null, jobId: string, lastEventId?: string): Promise<SseStream> {
  const headers: Record<string, string> = {};
  if (apiKey) headers['Authorization'] = `Bearer ${apiKey}`;
  if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
  return SseStream.open(`${baseUrl.replace(/\/+$/, '')}/v1/process/jobs/${jobId}/events`, headers);
}
