/**
 * What must never reach a log line: credentials in headers and task bodies,
 * and the capabilities hidden in URLs (signatures, upload and download tokens).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers.location',
  '*.password',
  '*.private_key',
  '*.secret_access_key',
  '*.session_token',
  '*.access_key_id',
  '*.signing_secret',
  '*.file',
];

const TOKEN_IN_PATH = /^(\/v1\/download\/)[^/?]+/;

/** Drops the query string (signatures, tokens) and download tokens from a request URL. */
export function redactUrl(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  const hadQuery = path.length < url.length;
  return path.replace(TOKEN_IN_PATH, '$1[redacted]') + (hadQuery ? '?[redacted]' : '');
}
