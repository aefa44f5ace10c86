import type { Response } from 'express';

/** One cookie's value from a Cookie header; undefined when absent or not decodable. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface CookieAttributes {
  httpOnly: boolean;
  sameSite: 'Strict' | 'Lax';
  secure: boolean;
  /** Omitted: a browser-session cookie. 0: delete it. */
  maxAgeSeconds?: number;
}

export function serialiseCookie(name: string, value: string, attributes: CookieAttributes): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', `SameSite=${attributes.sameSite}`];
  if (attributes.httpOnly) parts.push('HttpOnly');
  if (attributes.secure) parts.push('Secure');
  if (attributes.maxAgeSeconds !== undefined) parts.push(`Max-Age=${attributes.maxAgeSeconds}`);
  return parts.join('; ');
}

/** Adds a Set-Cookie line without dropping the ones already set on this response. */
export function appendSetCookie(response: Pick<Response, 'getHeader' | 'setHeader'>, cookie: string): void {
  const existing = response.getHeader('Set-Cookie');
  const lines = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  response.setHeader('Set-Cookie', [...lines, cookie]);
}
