import { clientIpOf } from './client-ip';
import { IpRuleSet, normaliseIpRule } from './ip-rules';

describe('IP rules', () => {
  it.each([
    ['an address inside a v4 CIDR', ['10.0.0.0/8'], '10.20.30.40', true],
    ['an address outside a v4 CIDR', ['10.0.0.0/8'], '11.0.0.1', false],
    ['the exact single address', ['203.0.113.7'], '203.0.113.7', true],
    ['a neighbour of a single address', ['203.0.113.7'], '203.0.113.8', false],
    ['an IPv4-mapped IPv6 socket address', ['127.0.0.1'], '::ffff:127.0.0.1', true],
    ['an IPv6 address in a v6 CIDR', ['2001:db8::/32'], '2001:db8:1::5', true],
    ['an IPv6 address outside', ['2001:db8::/32'], '2001:db9::1', false],
    ['garbage', ['10.0.0.0/8'], 'not-an-ip', false],
  ])('%s', (_name, rules, address, expected) => {
    expect(new IpRuleSet(rules).contains(address)).toBe(expected);
  });

  it.each([
    ['10.0.0.1', '10.0.0.1/32'],
    [' 10.0.0.0/8 ', '10.0.0.0/8'],
    ['::1', '::1/128'],
  ])('normalises %s', (rule, expected) => {
    expect(normaliseIpRule(rule)).toBe(expected);
  });

  it.each(['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '10.0.0.0/x', ''])('refuses %p', (rule) => {
    expect(() => normaliseIpRule(rule)).toThrow();
  });
});

describe('clientIpOf', () => {
  const proxies = new IpRuleSet(['10.0.0.0/8']);
  const none = new IpRuleSet([]);
  it.each([
    ['the socket without trusted proxies, header ignored', '198.51.100.1', '1.2.3.4', none, '198.51.100.1'],
    ['the socket when it is not a trusted proxy', '198.51.100.1', '1.2.3.4', proxies, '198.51.100.1'],
    ['the forwarded client through a trusted proxy', '10.0.0.5', '1.2.3.4', proxies, '1.2.3.4'],
    ['the first untrusted hop from the right', '10.0.0.5', '6.6.6.6, 1.2.3.4, 10.1.1.1', proxies, '1.2.3.4'],
    ['the proxy itself when the header is missing', '10.0.0.5', undefined, proxies, '10.0.0.5'],
    ['a mapped socket address', '::ffff:198.51.100.1', undefined, none, '198.51.100.1'],
  ])('%s', (_name, socket, header, trusted, expected) => {
    expect(clientIpOf(socket, header, trusted)).toBe(expected);
  });
});
