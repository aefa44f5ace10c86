import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that reached the receiver, kept whole. */
export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** When its headers arrived (ms since epoch). */
  at: number;
  /** What it was answered. */
  status: number;
}

/** A scripted answer; `hangMs` holds the answer back (to trip the dispatcher's time-out). */
export interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
  hangMs?: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A real HTTP server on loopback standing in for a customer's endpoint. Each
 * path answers from its script, in order; once the script is spent it hands
 * the request to `fallback` (the documented receiver). Paths under /files/
 * answer 404 (a source that does not exist, to fail an import).
 */
export class ScriptedReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly scripts = new Map<string, ScriptedReply[]>();
  private server?: Server;
  private port = 0;
  private readonly hanging = new Set<ServerResponse>();

  constructor(private readonly fallback: Handler) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  script(path: string, replies: ScriptedReply[]): void {
    this.scripts.set(path, [...replies]);
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Waits until `path` has had `count` requests. */
  async waitFor(path: string, count: number, timeoutMs: number): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path}: ${this.at(path).length} of ${count} request(s) within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.at(path);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const record: ReceivedRequest = { path, method: req.method ?? '', headers: req.headers, body: Buffer.alloc(0), at: Date.now(), status: 0 };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      record.body = Buffer.concat(chunks);
    });
    res.on('finish', () => (record.status = res.statusCode));
    if (path.startsWith('/files/')) {
      res.writeHead(404).end();
      return;
    }
    this.requests.push(record);
    const reply = this.scripts.get(path)?.shift();
    if (!reply) {
      this.fallback(req, res);
      return;
    }
    req.on('end', () => {
      const answer = () => {
        this.hanging.delete(res);
        if (!res.destroyed) res.writeHead(reply.status, reply.headers ?? {}).end();
      };
      if (!reply.hangMs) return answer();
      this.hanging.add(res);
      setTimeout(answer, reply.hangMs);
    });
  }
}
