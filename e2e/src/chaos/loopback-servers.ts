import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Serves the run's sample files on loopback, for import/url tasks. */
export class SourceServer {
  private readonly server: Server;
  private baseUrl = '';
  requests = 0;

  constructor(private readonly files: ReadonlyMap<string, Buffer>) {
    this.server = createServer((request, response) => this.serve(request, response));
  }

  async start(): Promise<void> {
    this.baseUrl = await listen(this.server);
  }

  url(name: string): string {
    return `${this.baseUrl}/files/${encodeURIComponent(name)}`;
  }

  stop(): Promise<void> {
    return close(this.server);
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    this.requests += 1;
    const name = decodeURIComponent((request.url ?? '').replace(/^\/files\//, '').split('?')[0] ?? '');
    const body = this.files.get(name);
    if (request.method !== 'GET' || !body) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }).end(body);
  }
}

/** One webhook the receiver acknowledged. */
export interface ReceivedWebhook {
  deliveryId: string;
  attempt: string;
  event: string;
  jobId: string;
  at: number;
}

/** A webhook receiver on loopback that acknowledges everything and remembers each delivery it acknowledged. */
export class WebhookReceiver {
  private readonly server: Server;
  private baseUrl = '';
  readonly received: ReceivedWebhook[] = [];

  constructor() {
    this.server = createServer((request, response) => this.receive(request, response));
  }

  async start(): Promise<void> {
    this.baseUrl = await listen(this.server);
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  stop(): Promise<void> {
    return close(this.server);
  }

  /** Deliveries acknowledged more than once (the same X-Service-Delivery answered 2xx twice). */
  duplicates(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { deliveryId } of this.received) counts.set(deliveryId, (counts.get(deliveryId) ?? 0) + 1);
    return new Map([...counts].filter(([, count]) => count > 1));
  }

  private receive(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let jobId = '';
      try {
        const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown }).id;
        jobId = typeof id === 'string' ? id : '';
      } catch {
        // Recorded without a job id; the delivery id still counts.
      }
      this.received.push({
        deliveryId: String(request.headers['x-service-delivery'] ?? ''),
        attempt: String(request.headers['x-service-attempt'] ?? ''),
        event: String(request.headers['x-service-event'] ?? ''),
        jobId,
        at: Date.now(),
      });
      response.writeHead(204).end();
    });
  }
}
