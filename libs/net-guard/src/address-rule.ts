import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Raised when a target is not a public address; the message says which rule refused it. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
}

/** The operator's switch and the exact addresses let through (tests). */
export interface AddressRule {
  allowPrivateNetworks: boolean;
  allowAddresses?: string[];
}

/** Names that mean "this machine" whatever DNS says; refused before any lookup. */
const LOCAL_NAMES = /(^|\.)localhost\.?$|^localhost\.?$|(^|\.)(local|internal|localdomain)\.?$/i;

/**
 * Why `address` is refused, or null when it is public (unicast on the
 * Internet). Refused: private, loopback, link-local, unique-local,
 * IPv4-mapped IPv6, 0.0.0.0/::, multicast, carrier-grade NAT, reserved and
 * documentation ranges (ipaddr.js names them all).
 */
export function refusalOf(address: string): string | null {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  const range = ipaddr.parse(address).range();
  return range === 'unicast' ? null : `${address} is a ${range} address, not a public one`;
}

/** IP literals as Node sees them: brackets of `[::1]` removed. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks what can be checked without DNS: the scheme, local-only names and IP
 * literals. The WHATWG parser has already turned decimal, octal and hex forms
 * (`2130706433`, `0177.0.0.1`, `0x7f.1`) into dotted quads by then.
 */
export function checkHostName(hostname: string, rule: AddressRule): void {
  if (rule.allowPrivateNetworks) return;
  const host = bareHost(hostname);
  if (host === '') throw new AddressRefusedError('the URL has no host');
  if (isIP(host) !== 0) {
    if (rule.allowAddresses?.includes(host)) return;
    const refusal = refusalOf(host);
    if (refusal) throw new AddressRefusedError(refusal);
    return;
  }
  if (LOCAL_NAMES.test(host)) throw new AddressRefusedError(`${host} names a local host, not a public one`);
}

/** Parses `raw` as an http(s) URL and applies `checkHostName`. */
export function checkPublicUrl(raw: string, rule: AddressRule): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRefusedError('the URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AddressRefusedError(`only http and https URLs are allowed, not ${url.protocol.replace(/:$/, '')}`);
  }
  checkHostName(url.hostname, rule);
  return url;
}

/** A URL safe for messages and logs: no credentials, no query (it may hold a signature). */
export function describeUrl(url: URL | string): string {
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
