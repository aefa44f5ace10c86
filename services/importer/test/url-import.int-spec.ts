import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import type { FsStorage } from '@transmute/storage';
import { createGuardedAgents } from '@transmute/net-guard';
import { UrlSource } from '../src/sources/url.source';
import { context, importerConfigFor, sampleBytes, sha256, tempStorage, workFor } from './connector-fixtures';

describe('import/url against a real HTTP server', () => {
  let server: Server;
  let base: string;
  let storage: FsStorage;
  let cleanup: () => Promise<void>;
  const bytes = sampleBytes();

  beforeAll(async () => {
    ({ storage, cleanup } = await tempStorage());
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/download') {
        // Chunked, no Content-Length: the ceiling must count what arrives.
        res.writeHead(200, { 'content-disposition': `attachment; filename="fallback.bin"; filename*=UTF-8''r%C3%A9sum%C3%A9.bin` });
        for (let offset = 0; offset < bytes.length; offset += 256 * 1024) res.write(bytes.subarray(offset, offset + 256 * 1024));
        res.end();
      } else if (path === '/moved') {
        res.writeHead(302, { location: '/files/photo.jpg' }).end();
      } else if (path === '/files/photo.jpg') {
        res.end(bytes);
      } else {
        res.writeHead(404).end('no');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await cleanup();
  });

  const source = (env: Record<string, string> = {}) => {
    const config = importerConfigFor({ TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true', ...env });
    return new UrlSource(storage, config, createGuardedAgents(config));
  };

  it('streams the body in byte for byte and names it from Content-Disposition', async () => {
    const imported = await source().import(workFor({ operation: 'import/url', url: `${base}/download?sig=secret` }), context());
    expect(imported.filename).toBe('résumé.bin');
    expect(sha256(await buffer(await storage.get(imported.key)))).toBe(sha256(bytes));
  });

  it('follows a redirect and names the file from the final URL', async () => {
    const imported = await source().import(workFor({ operation: 'import/url', url: `${base}/moved` }), context());
    expect(imported.filename).toBe('photo.jpg');
    expect(imported.size).toBe(bytes.length);
  });

  it('stops at the byte ceiling, counted on arrival', async () => {
    const attempt = source({ TRANSMUTE_MAX_FETCH_BYTES: String(1024 * 1024) }).import(workFor({ operation: 'import/url', url: `${base}/download` }), context());
    await expect(attempt).rejects.toMatchObject({ code: 7, message: expect.stringMatching(/is larger than the import ceiling of 1.05 MB \(1048576 bytes\)/) });
  });

  it.each([
    ['a 404', () => `${base}/missing`, /the server answered 404/],
    ['an unreachable host', () => 'http://127.0.0.1:1/file.png', /could not be reached \(ECONNREFUSED\)/],
  ])('fails with a clear message for %s', async (_name, url, message) => {
    await expect(source().import(workFor({ operation: 'import/url', url: url() }), context())).rejects.toThrow(message);
  });

  it('refuses the loopback server with the default setting, and never names the query string', async () => {
    const attempt = new UrlSource(storage, importerConfigFor({}), createGuardedAgents({ allowPrivateNetworks: false })).import(
      workFor({ operation: 'import/url', url: `${base}/download?sig=secret` }),
      context(),
    );
    await expect(attempt).rejects.toThrow(/is not allowed: 127\.0\.0\.1 is a loopback address/);
    await expect(attempt).rejects.not.toThrow(/secret/);
  });
});
