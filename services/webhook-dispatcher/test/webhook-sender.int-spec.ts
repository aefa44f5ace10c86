import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DispatcherConfig } from '../src/config';
import { WebhookSender } from '../src/delivery/webhook-sender';

/** A real receiver on loopback; each path answers as scripted. */
let server: Server;
let base: string;
const received: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/redirect') res.writeHead(307, { Location: '/ok' }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 1_000);
      else if (req.url === '/busy') res.writeHead(503, { 'Retry-After': '7' }).end();
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => received.splice(0));

function sender(allowPrivateNetworks: boolean, timeoutMs = 2_000): WebhookSender {
  return new WebhookSender({ allowPrivateNetworks, timeoutMs } as DispatcherConfig);
}

describe('WebhookSender', () => {
  it.each([
    ['a loopback address', () => `${base}/ok`],
    ['localhost', () => base.replace('127.0.0.1', 'localhost') + '/ok'],
    ['a private address', () => 'http://10.1.2.3/ok'],
    ['a link-local address', () => 'http://169.254.169.254/latest/meta-data'],
    ['another scheme', () => 'ftp://example.com/x'],
  ])('refuses %s under the public-address rule, without connecting', async (_name, url) => {
    const result = await sender(false).send(url(), Buffer.from('{}'), {});
    expect(result).toMatchObject({ statusCode: 0, refused: true, error: expect.stringMatching(/^target refused: /) });
    expect(received).toHaveLength(0);
  });

  it('posts the body and headers when private networks are allowed', async () => {
    const result = await sender(true).send(`${base}/ok`, Buffer.from('{"a":1}'), { 'X-Service-Attempt': '1' });
    expect(result).toMatchObject({ statusCode: 204, error: '', refused: false });
    expect(received).toEqual([{ path: '/ok', headers: expect.objectContaining({ 'content-type': 'application/json', 'x-service-attempt': '1' }), body: '{"a":1}' }]);
  });

  it('does not follow a redirect', async () => {
    const result = await sender(true).send(`${base}/redirect`, Buffer.from('{}'), {});
    expect(result).toMatchObject({ statusCode: 307, error: 'HTTP 307 (redirects are not followed)' });
    expect(received.map((request) => request.path)).toEqual(['/redirect']);
  });

  it('gives up on a receiver slower than the time-out', async () => {
    const result = await sender(true, 300).send(`${base}/slow`, Buffer.from('{}'), {});
    expect(result).toMatchObject({ statusCode: 0, error: 'no answer within 300 ms', refused: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(900);
  });

  it('reads Retry-After', async () => {
    expect(await sender(true).send(`${base}/busy`, Buffer.from('{}'), {})).toMatchObject({ statusCode: 503, retryAfterMs: 7_000 });
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sender(true).send(`http://127.0.0.1:${port}/`, Buffer.from('{}'), {});
    expect(result).toMatchObject({ statusCode: 0, refused: false, error: expect.stringMatching(/refused/) });
  });
});
