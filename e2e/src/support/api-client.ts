import type { CreateJobRequest, Job, UploadForm } from './api-types';
import { ContractViolation, ResponseValidator } from './response-validator';

/** One HTTP exchange, kept whole so tests can assert on any part of it. */
export interface HttpReply {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  /** The body as text ('' when empty). */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface BinaryReply {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** A reply with a status the caller did not expect. */
export class UnexpectedReply extends Error {
  constructor(
    readonly reply: HttpReply,
    expected: number,
  ) {
    super(`${reply.method} ${reply.url}: expected HTTP ${expected}, got ${reply.status}: ${reply.text.slice(0, 500)}`);
    this.name = 'UnexpectedReply';
  }
}

export interface RequestOptions {
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Send the API key (default true). */
  auth?: boolean;
  headers?: Record<string, string>;
  /** A raw body (e.g. file bytes); set its Content-Type in headers. */
  body?: Uint8Array | string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * What to send to an upload form: PUT, the raw bytes with the headers; POST
 * (S3's POST policy), a multipart form of the form's parameters, in order,
 * then the file as the last field.
 */
export function uploadBody(
  form: Pick<UploadForm, 'method' | 'parameters'>,
  bytes: Uint8Array,
  headers: Record<string, string>,
): { headers?: Record<string, string>; body: NonNullable<RequestInit['body']> } {
  if (form.method !== 'POST') return { headers, body: bytes };
  const body = new FormData();
  for (const [name, value] of Object.entries(form.parameters)) body.append(name, value);
  body.append('file', new Blob([bytes]));
  return { body };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The public API in plain fetch. Typed helpers (createJob, getJob, ...) insist
 * on the status the spec gives for success; `request` returns whatever came
 * back, for tests that look at error replies.
 */
export class TransmuteClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs: number = DEFAULT_TIMEOUT_MS,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** An API path (`/v1/...`) or an absolute URL. */
  url(pathOrUrl: string): string {
    return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
  }

  async request(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<HttpReply> {
    const url = this.url(pathOrUrl);
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.auth !== false) headers['Authorization'] = `Bearer ${this.apiKey}`;
    let body: Uint8Array | string | undefined = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
    const text = await response.text();
    const reply = { method, url, status: response.status, headers: response.headers, text, json: parseJson(text) };
    await this.checkContract(reply);
    return reply;
  }

  /**
   * Every reply from this API is held to the served /openapi.json: a status
   * the document does not give, or a body off its schema, fails the test.
   */
  private async checkContract(reply: HttpReply): Promise<void> {
    if (!reply.url.startsWith(`${this.baseUrl}/`)) return;
    const path = new URL(reply.url).pathname;
    if (path === '/openapi.json') return;
    this.validator ??= this.loadValidator();
    const validator = await this.validator;
    const exchange = { method: reply.method, path, status: reply.status, contentType: reply.headers.get('content-type'), json: reply.json, text: reply.text };
    const problems = validator.problems(exchange);
    if (problems.length > 0) throw new ContractViolation(exchange, problems);
  }

  private validator?: Promise<ResponseValidator>;

  private async loadValidator(): Promise<ResponseValidator> {
    const response = await fetch(`${this.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}; every reply is validated against it`);
    return new ResponseValidator((await response.json()) as ConstructorParameters<typeof ResponseValidator>[0]);
  }

  /** The served OpenAPI document. */
  async openApi(): Promise<Record<string, unknown>> {
    const reply = await this.request('GET', '/openapi.json', { auth: false });
    if (reply.status !== 200) throw new UnexpectedReply(reply, 200);
    return reply.json as Record<string, unknown>;
  }

  /** `POST /v1/process/jobs`: 201 and the job. */
  async createJob(body: CreateJobRequest): Promise<Job> {
    return this.expectJob(await this.request('POST', '/v1/process/jobs', { json: body }), 201);
  }

  /** `GET /v1/process/jobs/{id}`: 200 and the job. */
  async getJob(jobId: string): Promise<Job> {
    return this.expectJob(await this.request('GET', `/v1/process/jobs/${jobId}`), 200);
  }

  /** `POST /v1/process/jobs/{id}/complete-upload` (no body): 200 and the job. */
  async completeUpload(jobId: string): Promise<Job> {
    return this.expectJob(await this.completeUploadReply(jobId), 200);
  }

  completeUploadReply(jobId: string): Promise<HttpReply> {
    return this.request('POST', `/v1/process/jobs/${jobId}/complete-upload`);
  }

  /**
   * The direct upload: `form.method` to `form.url` with exactly `form.headers`
   * (and only them: no API key, the URL is signed), body the raw bytes.
   * `headers` replaces the form's headers, to send wrong ones on purpose.
   */
  async upload(form: UploadForm, bytes: Uint8Array, headers: Record<string, string> = form.headers): Promise<HttpReply> {
    const url = form.url;
    const response = await fetch(url, {
      method: form.method,
      ...uploadBody(form, bytes, headers),
      redirect: 'manual',
      signal: AbortSignal.timeout(Math.max(this.timeoutMs, 120_000)),
    });
    const text = await response.text();
    return { method: form.method, url, status: response.status, headers: response.headers, text, json: parseJson(text) };
  }

  /** `GET /v1/download/{token}` (or any link), without following redirects. */
  async downloadRedirect(link: string, auth = false): Promise<HttpReply> {
    return this.request('GET', link, { auth, headers: { Accept: '*/*' } });
  }

  /** Fetches bytes from a link (typically a redirect's Location), without following further redirects. */
  async fetchBytes(link: string): Promise<BinaryReply> {
    const response = await fetch(this.url(link), { redirect: 'manual', signal: AbortSignal.timeout(Math.max(this.timeoutMs, 120_000)) });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  /**
   * The whole download as a client does it: the API link must answer 302 with
   * a Location, and the Location 200 with the bytes.
   */
  async download(link: string): Promise<{ redirect: HttpReply; location: string; file: BinaryReply }> {
    const redirect = await this.downloadRedirect(link);
    if (redirect.status !== 302) throw new UnexpectedReply(redirect, 302);
    const header = redirect.headers.get('location');
    if (!header) throw new Error(`GET ${link}: 302 without a Location header`);
    const location = new URL(header, this.url(link)).toString();
    const file = await this.fetchBytes(location);
    if (file.status !== 200) throw new Error(`GET ${location} (redirected from ${link}): expected HTTP 200, got ${file.status}: ${file.bytes.toString('utf8', 0, 500)}`);
    return { redirect, location, file };
  }

  /** The gateway's Prometheus text, or undefined when it has none. */
  async metrics(): Promise<string | undefined> {
    const reply = await this.request('GET', '/metrics', { auth: false, headers: { Accept: 'text/plain' } });
    return reply.status === 200 ? reply.text : undefined;
  }

  private expectJob(reply: HttpReply, status: number): Job {
    if (reply.status !== status || typeof reply.json !== 'object' || reply.json === null) throw new UnexpectedReply(reply, status);
    return reply.json as Job;
  }
}

/**
 * A metric from a Prometheus text exposition, e.g. `process_resident_memory_bytes`:
 * the sum of its samples over every label set, or undefined when it is absent.
 */
export function metricValue(exposition: string, name: string): number | undefined {
  let total: number | undefined;
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match && match[1] === name) {
      const value = Number(match[3]);
      if (Number.isFinite(value)) total = (total ?? 0) + value;
    }
  }
  return total;
}
