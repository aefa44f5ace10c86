import { type RequestListener, createServer } from 'node:http';
import { ExpressAdapter } from '@nestjs/platform-express';

/** How long a client may take, per connection; read from the base config of every service. */
export interface HttpLimits {
  /** Whole request head (request line and headers); past it: 408 and the connection closed. */
  headersTimeoutMs: number;
  /** Whole request, body included (0: none); past it: 408 and the connection closed. */
  requestTimeoutMs: number;
  /** No byte either way on the socket for this long: it is closed (a stalled upload, a silent idle connection). */
  idleTimeoutMs: number;
}

/** How often Node checks the header and request deadlines; its default (30 s) would let a deadline slip by as much. */
const DEADLINE_CHECK_MS = 1_000;

/**
 * Express behind an HTTP server built with the limits above, so a slowloris
 * client (headers or body dribbled byte by byte, or a stalled upload) is cut
 * off at a stated time while the server keeps serving everyone else. Node's
 * 16 KiB header limit stays: larger heads get 431.
 */
export class LimitedExpressAdapter extends ExpressAdapter {
  constructor(private readonly limits: HttpLimits) {
    super();
  }

  override initHttpServer(): void {
    const { headersTimeoutMs, requestTimeoutMs, idleTimeoutMs } = this.limits;
    const server = createServer(
      {
        // Node refuses a head deadline later than the whole request's.
        headersTimeout: requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        connectionsCheckingInterval: DEADLINE_CHECK_MS,
      },
      this.getInstance<RequestListener>(),
    );
    // Without a 'timeout' listener, Node destroys a socket idle for this long.
    server.setTimeout(idleTimeoutMs);
    this.httpServer = server;
  }
}
