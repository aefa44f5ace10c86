/** Calls to the gateway from the pages: same origin, cookies, the CSRF token on every request. */

let csrfToken = '';

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** A failed call, with the gateway's plain message and status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { Accept: 'application/json', 'X-CSRF-Token': csrfToken, ...extra };
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  const json = parseBody(text);
  if (!response.ok) throw new ApiError(response.status, json?.message ?? `The server answered ${response.status}.`, json?.retry_after);
  if (typeof json?.csrf_token === 'string') setCsrfToken(json.csrf_token);
  return json as T;
}

export interface Person {
  person_id: string;
  email: string;
  account_id: string;
}

export interface SessionAnswer {
  csrf_token: string;
  person: Person | null;
}

export async function loadSession(): Promise<Person | null> {
  const answer = await api<SessionAnswer>('GET', '/web/api/session');
  return answer.person;
}

export interface Usage {
  plan: string;
  month: string;
  monthly_used_bytes: number;
  monthly_allowance_bytes: number;
  additional_used_bytes: number;
  additional_allowance_bytes: number;
  day: string;
  daily_conversions_used: number;
  daily_conversions_allowance: number;
}

/** Where a job's import/upload task takes its file (docs/decisions.md, "Upload ceiling"). */
export interface UploadFormView {
  url: string;
  method: string;
  headers: Record<string, string>;
  parameters?: Record<string, string>;
}

/**
 * Sends a file to an upload form: a PUT of the raw bytes with exactly the
 * form's headers (fs storage, the gateway's own route), or a multipart POST
 * of the form's parameters, in order, then the file (S3's POST policy).
 */
export function sendToUploadForm(form: UploadFormView, file: Blob): Promise<Response> {
  if (form.method === 'POST') {
    const body = new FormData();
    for (const [name, value] of Object.entries(form.parameters ?? {})) body.append(name, value);
    body.append('file', file);
    return fetch(form.url, { method: 'POST', body });
  }
  return fetch(form.url, { method: form.method, headers: form.headers, body: file, credentials: 'same-origin' });
}

/** The reason of a refused upload: our Error body, or S3's XML when the file was over the quota left. */
export function uploadRefusal(status: number, text: string): string {
  if (text.includes('<Code>EntityTooLarge</Code>')) return "the file is larger than what is left of this account's quota";
  return parseBody(text)?.message ?? `the upload answered ${status}`;
}

export interface TaskView {
  name: string;
  operation: string;
  status: string;
  progress?: number;
  result?: {
    form?: UploadFormView;
    url?: string;
    filename?: string;
    error?: string;
    files?: { url: string; filename: string }[];
  };
}

export interface JobView {
  id: string;
  tag: string;
  status: string;
  createdAt: string;
  endedAt: string | null;
  tasks: TaskView[];
  result: { files: { task: string; url: string; filename: string }[] } | null;
  error: string;
}

/** 1 GB = 10^9 bytes, as the plans count; two decimals like the spec's "1.00 GB". */
export function formatGb(bytes: number): string {
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return formatGb(bytes);
}

/** A moment in the reader's own locale and time zone; 'never' for none. */
export function formatWhen(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : 'never';
}

/** What any answer of ours may carry besides its payload: the Error shape and a fresh CSRF token. */
export interface AnswerFields {
  message?: string;
  retry_after?: number;
  csrf_token?: string;
}

/** The JSON of an answer, or null when it has none (an empty body, or not JSON). */
export function parseBody(text: string): AnswerFields | null {
  try {
    return text ? (JSON.parse(text) as AnswerFields) : null;
  } catch {
    return null;
  }
}
