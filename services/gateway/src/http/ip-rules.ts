import { BlockList, isIP } from 'node:net';

/** One IP or CIDR as stored on a key, e.g. "203.0.113.7" or "2001:db8::/32". */
export function parseIpRule(rule: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [address = '', bits, extra] = rule.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) throw new Error(`"${rule}" is not an IP address or CIDR`);
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!/^\d+$/.test(bits ?? String(max)) || prefix > max) throw new Error(`"${rule}" has a bad prefix length (0-${max})`);
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Canonical text of a rule, so "10.0.0.1" and "10.0.0.1/32" are stored alike. */
export function normaliseIpRule(rule: string): string {
  const { address, prefix } = parseIpRule(rule);
  return `${address}/${prefix}`;
}

/** An IPv4 address seen through an IPv6 socket ("::ffff:1.2.3.4") is the IPv4 address. */
export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** A set of IPs/CIDRs; empty means "no restriction" is decided by the caller. */
export class IpRuleSet {
  private readonly list = new BlockList();
  readonly size: number;

  constructor(rules: readonly string[]) {
    for (const rule of rules) {
      const { address, prefix, family } = parseIpRule(rule);
      this.list.addSubnet(address, prefix, family);
    }
    this.size = rules.length;
  }

  contains(address: string): boolean {
    const plain = normaliseAddress(address);
    const version = isIP(plain);
    if (version === 0) return false;
    return this.list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
  }
}
