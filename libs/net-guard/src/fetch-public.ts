import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { AddressRefusedError, checkPublicUrl, describeUrl } from './address-rule';
import { type GuardedAgents, type NetGuardOptions, createGuardedAgents } from './guarded-agents';

/** The body went past `maxBytes`; counted on the bytes as they arrived, not on Content-Length. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

export interface FetchPublicOptions {
  guard: NetGuardOptions;
  /** Agents to reuse (keep-alive); made from `guard` when absent. */
  agents?: GuardedAgents;
  /** Redirects followed, each to a checked address. 0 returns the 3xx itself. Default 5. */
  maxRedirects?: number;
  /** The body stream fails with BodyTooLargeError past this many bytes. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Longest wait for the connection, the headers, or between two chunks of the body. */
  timeoutMs?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface PublicResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: URL;
  /** The body, counted against `maxBytes`; read it or call `body.destroy()`. */
  body: Readable;
}

export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a URL on the public Internet only. Node's global fetch ignores
 * agents, so this goes through node:http(s) with guarded agents; redirects are
 * followed by hand, each Location checked again (scheme, name, address).
 */
export async function fetchPublic(raw: string, options: FetchPublicOptions): Promise<PublicResponse> {
  const agents = options.agents ?? createGuardedAgents(options.guard);
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = checkPublicUrl(raw, options.guard);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  for (let hop = 0; ; hop += 1) {
    const response = await requestOnce(url, method, body, agents, options);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location || maxRedirects === 0) {
      return { status: response.statusCode ?? 0, headers: response.headers, url, body: limitBody(response, options) };
    }
    response.resume();
    if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects from ${describeUrl(raw)}`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new Error(`${describeUrl(url)} redirected to an invalid URL`);
    }
    try {
      url = checkPublicUrl(next.href, options.guard);
    } catch (error) {
      throw new AddressRefusedError(`redirect to ${describeUrl(next)} refused: ${(error as Error).message}`);
    }
    if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}

function requestOnce(url: URL, method: string, body: string | Buffer | undefined, agents: GuardedAgents, options: FetchPublicOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const request = send({
      ...urlToHttpOptions(url),
      method,
      agent: secure ? agents.https : agents.http,
      headers: { 'user-agent': 'Transmute', ...options.headers },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (options.timeoutMs) {
      request.setTimeout(options.timeoutMs, () => request.destroy(new Error(`no answer from ${url.host} within ${options.timeoutMs} ms`)));
    }
    request.once('response', resolve);
    request.once('error', (error: NodeJS.ErrnoException) => reject(explain(error, url)));
    request.end(body);
  });
}

/** Turns the filter's and the socket's errors into messages a client can act on. */
function explain(error: NodeJS.ErrnoException, url: URL): Error {
  if (error.name === 'AbortError') return error;
  if (/is not allowed\. Because/.test(error.message)) {
    const address = /DNS lookup (\S+?)\(/.exec(error.message)?.[1] ?? 'its address';
    return new AddressRefusedError(`${url.hostname} resolves to ${address}, which is not a public address`);
  }
  // The code stays on the error: callers tell "unreachable, retry" from "refused, give up" by it.
  const withCode = (message: string) => Object.assign(new Error(message), { code: error.code });
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return withCode(`${url.hostname} could not be resolved`);
  if (error.code === 'ECONNREFUSED') return withCode(`${url.host} refused the connection`);
  if (error.code === 'ETIMEDOUT' || error.code === 'ECONNRESET') return withCode(`${url.host} did not answer (${error.code})`);
  return error;
}

function limitBody(response: IncomingMessage, options: FetchPublicOptions): Readable {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) {
        // Destroy ours first, so the abort this causes below is not what the reader sees.
        this.destroy(new BodyTooLargeError(`the file is larger than the limit of ${maxBytes} bytes`));
        response.destroy();
        callback();
        return;
      }
      callback(null, chunk);
    },
  });
  if (options.timeoutMs) {
    response.setTimeout(options.timeoutMs, () => counter.destroy(new Error(`the download stalled for ${options.timeoutMs} ms`)));
  }
  response.once('error', (error) => counter.destroy(error));
  response.once('aborted', () => counter.destroy(new Error('the connection closed before the whole file arrived')));
  counter.once('close', () => {
    if (!response.complete) response.destroy();
  });
  return response.pipe(counter);
}
