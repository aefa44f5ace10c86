import { createServer, get, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { text } from 'node:stream/consumers';
import { AddressRefusedError, checkPublicUrl } from './address-rule';
import { BodyTooLargeError, fetchPublic } from './fetch-public';
import { createGuardedAgents } from './guarded-agents';
import { resolvePublicAddress } from './resolve-public';

/** A resolver with chosen answers, so "a name that resolves to a private address" needs no outside DNS. */
const names: Record<string, string[]> = {
  'evil.example': ['10.0.0.5'],
  'rebind.example': ['93.184.216.34', '127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
  'loop.example': ['127.0.0.1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'files.example.com': ['127.0.0.2'],
};
const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  const answers = names[hostname];
  if (!answers) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  const all = answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  if (options.all) callback(null, all);
  else callback(null, all[0]!.address, all[0]!.family);
}) as unknown as LookupFunction;

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

describe('the public-address rule', () => {
  let secret: Server;
  let secretPort: number;
  let publicLooking: Server;
  let publicPort: number;
  // The "public" server is 127.0.0.2, let through by allowAddresses; 127.0.0.1 stays private.
  const guard = { allowPrivateNetworks: false, allowAddresses: ['127.0.0.2'], lookup };

  beforeAll(async () => {
    secret = createServer((_req, res) => res.end('internal secret'));
    secretPort = await listen(secret, '127.0.0.1');
    publicLooking = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/to') {
        res.writeHead(302, { location: url.searchParams.get('u') ?? '/' }).end();
      } else if (url.pathname === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else if (url.pathname === '/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.alloc(1024 * 1024, 7));
      } else {
        res.end('public ok');
      }
    });
    publicPort = await listen(publicLooking, '127.0.0.2');
  });
  afterAll(async () => {
    await new Promise((resolve) => secret.close(resolve));
    await new Promise((resolve) => publicLooking.close(resolve));
  });

  const hostile: Array<[string, string]> = [
    ['loopback', 'http://127.0.0.1:SECRET_PORT/'],
    ['short loopback', 'http://127.1:SECRET_PORT/'],
    ['decimal IP', 'http://2130706433:SECRET_PORT/'],
    ['octal IP', 'http://0177.0.0.1:SECRET_PORT/'],
    ['whole octal IP', 'http://017700000001:SECRET_PORT/'],
    ['hex IP', 'http://0x7f000001:SECRET_PORT/'],
    ['dotted hex IP', 'http://0x7f.0x0.0x0.0x1:SECRET_PORT/'],
    ['mixed hex IP', 'http://0x7f.1:SECRET_PORT/'],
    ['IPv6 loopback', 'http://[::1]:SECRET_PORT/'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:SECRET_PORT/'],
    ['IPv4-mapped IPv6 in hex', 'http://[::ffff:7f00:1]:SECRET_PORT/'],
    ['long IPv4-mapped IPv6', 'http://[0:0:0:0:0:ffff:127.0.0.1]:SECRET_PORT/'],
    ['IPv4-mapped metadata', 'http://[::ffff:a9fe:a9fe]/'],
    ['NAT64 loopback', 'http://[64:ff9b::7f00:1]/'],
    ['6to4 loopback', 'http://[2002:7f00:1::]/'],
    ['localhost', 'http://localhost:SECRET_PORT/'],
    ['localhost with a trailing dot', 'http://localhost.:SECRET_PORT/'],
    ['LOCALHOST upper case', 'http://LOCALHOST:SECRET_PORT/'],
    ['a localhost subdomain', 'http://app.localhost:SECRET_PORT/'],
    ['0.0.0.0', 'http://0.0.0.0:SECRET_PORT/'],
    ['bare 0', 'http://0:SECRET_PORT/'],
    ['IPv6 unspecified', 'http://[::]:SECRET_PORT/'],
    ['10/8', 'http://10.0.0.1/'],
    ['172.16/12', 'http://172.16.0.1/'],
    ['192.168/16', 'http://192.168.1.1/'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 unique-local', 'http://[fc00::1]/'],
    ['AWS IPv6 metadata', 'http://[fd00:ec2::254]/'],
    ['multicast', 'http://224.0.0.1/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['benchmark range', 'http://198.18.0.1/'],
    ['documentation range', 'http://192.0.2.1/'],
    ['class E', 'http://240.0.0.1/'],
    ['credentials in a loopback URL', 'http://user:pass@127.0.0.1:SECRET_PORT/'],
    ['a .internal name', 'http://metadata.google.internal/computeMetadata/v1/'],
    ['a name that resolves to 10.0.0.5', 'http://evil.example/'],
    ['a name that resolves to the metadata address', 'http://metadata.example/'],
    ['a name that resolves to loopback where a server listens', 'http://loop.example:SECRET_PORT/'],
    ['a name with one public and one private address', 'http://rebind.example:SECRET_PORT/'],
    ['a name that resolves to IPv4-mapped loopback', 'http://mapped.example:SECRET_PORT/'],
    ['file scheme', 'file:///etc/passwd'],
    ['ftp scheme', 'ftp://example.com/file'],
    ['gopher scheme', 'gopher://127.0.0.1:SECRET_PORT/_'],
    ['a public-looking redirect to loopback', 'http://files.example.com:PUBLIC_PORT/to?u=ENC(http://127.0.0.1:SECRET_PORT/)'],
    ['a redirect to the metadata address', 'http://127.0.0.2:PUBLIC_PORT/to?u=ENC(http://169.254.169.254/latest/meta-data/)'],
    ['a redirect to a decimal loopback', 'http://127.0.0.2:PUBLIC_PORT/to?u=ENC(http://2130706433:SECRET_PORT/)'],
    ['a redirect to a private name', 'http://127.0.0.2:PUBLIC_PORT/to?u=ENC(http://loop.example:SECRET_PORT/)'],
    ['a redirect to a file URL', 'http://127.0.0.2:PUBLIC_PORT/to?u=ENC(file:///etc/passwd)'],
    ['a redirect to [::ffff:127.0.0.1]', 'http://127.0.0.2:PUBLIC_PORT/to?u=ENC(http://[::ffff:127.0.0.1]:SECRET_PORT/)'],
  ];

  /** Ports are known only once the servers listen; ENC(...) is a URL-encoded redirect target. */
  const resolveTemplate = (template: string) =>
    template
      .replace(/SECRET_PORT/g, String(secretPort))
      .replace(/PUBLIC_PORT/g, String(publicPort))
      .replace(/ENC\((.*)\)$/, (_all, target: string) => encodeURIComponent(target));

  it('has a table of at least 30 hostile URLs', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
  });

  it.each(hostile)('refuses %s', async (_name, template) => {
    const outcome = await fetchPublic(resolveTemplate(template), { guard, timeoutMs: 2_000 }).then(
      async (response) => `fetched ${response.status}: ${await text(response.body)}`,
      (error: Error) => error,
    );
    expect(outcome).toBeInstanceOf(AddressRefusedError);
  });

  it('reaches the public-looking server and follows a redirect that stays public', async () => {
    const target = `http://files.example.com:${publicPort}/to?u=${encodeURIComponent(`http://127.0.0.2:${publicPort}/ok`)}`;
    const response = await fetchPublic(target, { guard });
    expect(response.status).toBe(200);
    expect(response.url.pathname).toBe('/ok');
    expect(await text(response.body)).toBe('public ok');
  });

  it('lets private targets through when the operator allows private networks', async () => {
    const response = await fetchPublic(`http://loop.example:${secretPort}/`, { guard: { allowPrivateNetworks: true, lookup } });
    expect(await text(response.body)).toBe('internal secret');
  });

  it('stops after the documented number of redirects', async () => {
    await expect(fetchPublic(`http://127.0.0.2:${publicPort}/loop`, { guard, maxRedirects: 3 })).rejects.toThrow('more than 3 redirects');
  });

  it('counts the body as it arrives and stops past maxBytes', async () => {
    const response = await fetchPublic(`http://127.0.0.2:${publicPort}/big`, { guard, maxBytes: 64 * 1024 });
    await expect(text(response.body)).rejects.toThrow(BodyTooLargeError);
    const whole = await fetchPublic(`http://127.0.0.2:${publicPort}/big`, { guard, maxBytes: 1024 * 1024 });
    expect((await text(whole.body)).length).toBe(1024 * 1024);
  });

  it('checks the address at connect time in the agents themselves, for literals and resolved names', async () => {
    const agents = createGuardedAgents({ allowPrivateNetworks: false, lookup });
    const attempt = (url: string) =>
      new Promise<string>((resolve) => {
        try {
          get(url, { agent: agents.http }, (res) => resolve(`answered ${res.statusCode}`)).on('error', (error) => resolve(error.message));
        } catch (error) {
          resolve((error as Error).message);
        }
      });
    expect(await attempt(`http://127.0.0.1:${secretPort}/`)).toMatch(/not allowed/);
    expect(await attempt(`http://loop.example:${secretPort}/`)).toMatch(/not allowed/);
  });

  it('resolves once and checks every address for non-http protocols', async () => {
    await expect(resolvePublicAddress('rebind.example', { allowPrivateNetworks: false, lookup })).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(resolvePublicAddress('localhost', { allowPrivateNetworks: false })).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(resolvePublicAddress('127.0.0.1', { allowPrivateNetworks: false })).rejects.toBeInstanceOf(AddressRefusedError);
    expect(await resolvePublicAddress('files.example.com', { allowPrivateNetworks: false, allowAddresses: ['127.0.0.2'], lookup })).toEqual({ address: '127.0.0.2', family: 4 });
    expect(await resolvePublicAddress('localhost', { allowPrivateNetworks: true })).toMatchObject({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
  });

  it('keeps only http and https and normalises numeric hosts before checking', () => {
    expect(checkPublicUrl('https://93.184.216.34/a', { allowPrivateNetworks: false }).hostname).toBe('93.184.216.34');
    expect(() => checkPublicUrl('http://2130706433/', { allowPrivateNetworks: false })).toThrow('127.0.0.1 is a loopback address');
  });
});
