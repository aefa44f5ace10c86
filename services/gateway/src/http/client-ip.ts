import { IpRuleSet, normaliseAddress } from './ip-rules';

/**
 * The client's address: the socket's peer, unless that peer is a trusted
 * proxy; then `X-Forwarded-For` is read from the right, skipping trusted
 * proxies, and the first untrusted hop is the client. Without trusted proxies
 * the header is ignored, so a client cannot choose its own address.
 */
export function clientIpOf(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustedProxies: IpRuleSet): string {
  let current = normaliseAddress(socketAddress ?? '');
  if (trustedProxies.size === 0 || !trustedProxies.contains(current)) return current;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    current = normaliseAddress(hops[index] as string);
    if (!trustedProxies.contains(current)) return current;
  }
  return current;
}
