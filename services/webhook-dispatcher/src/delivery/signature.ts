import { createHmac } from 'node:crypto';

/** `X-Service-Signature`: `sha256=` and the hex HMAC-SHA256 of the raw body under the account's signing secret. */
export function signatureHeader(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
