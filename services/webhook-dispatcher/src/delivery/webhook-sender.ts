import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AddressRefusedError, type GuardedAgents, createGuardedAgents, fetchPublic } from '@transmute/net-guard';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { DispatcherConfig } from '../config';
import { parseRetryAfter } from './retry-policy';

/** A receiver's answer is read this far and dropped; only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  /** 0 when no response arrived. */
  statusCode: number;
  durationMs: number;
  /** Empty on a 2xx. */
  error: string;
  retryAfterMs?: number;
  /** The public-address rule refused the target: no attempt can ever succeed. */
  refused: boolean;
}

/**
 * One POST to a receiver, through agents that enforce the public-address rule
 * on the address actually connected to. Redirects are not followed (a 3xx is
 * a failed attempt); the whole exchange has `TRANSMUTE_WEBHOOK_TIMEOUT_MS`.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agents: GuardedAgents;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: DispatcherConfig) {
    this.agents = createGuardedAgents({ allowPrivateNetworks: config.allowPrivateNetworks });
  }

  async send(url: string, body: Buffer, headers: Record<string, string>, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const deadline = AbortSignal.timeout(this.config.timeoutMs);
    const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
    try {
      const response = await fetchPublic(url, {
        guard: { allowPrivateNetworks: this.config.allowPrivateNetworks },
        agents: this.agents,
        maxRedirects: 0,
        maxBytes: MAX_RESPONSE_BYTES,
        timeoutMs: this.config.timeoutMs,
        signal: combined,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': 'Transmute-Webhooks/1', ...headers },
        body,
      });
      await drain(response.body);
      const statusCode = response.status;
      const ok = statusCode >= 200 && statusCode < 300;
      const retryAfter: string | string[] | undefined = response.headers['retry-after'];
      const retryAfterMs = parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : retryAfter?.[0], new Date());
      return {
        statusCode,
        durationMs: elapsed(),
        error: ok ? '' : statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode} (redirects are not followed)` : `HTTP ${statusCode}`,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        refused: false,
      };
    } catch (error) {
      const refused = error instanceof AddressRefusedError;
      const message = deadline.aborted ? `no answer within ${this.config.timeoutMs} ms` : (error as Error).message;
      return { statusCode: 0, durationMs: elapsed(), error: refused ? `target refused: ${message}` : message, refused };
    }
  }

  onApplicationShutdown(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** Reads and drops the receiver's answer; a large or broken one only ends the read. */
async function drain(body: NodeJS.ReadableStream & { destroy(error?: Error): void }): Promise<void> {
  try {
    for await (const _chunk of body) {
      // dropped
    }
  } catch {
    body.destroy();
  }
}
