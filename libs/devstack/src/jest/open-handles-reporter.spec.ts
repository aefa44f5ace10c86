import { connect, createServer, type AddressInfo } from 'node:net';
import OpenHandlesReporter, { openHandles } from './open-handles-reporter';

describe('OpenHandlesReporter', () => {
  const { setTimeout: originalTimeout, setInterval: originalInterval } = globalThis;

  beforeAll(() => new OpenHandlesReporter());
  afterAll(() => {
    globalThis.setTimeout = originalTimeout;
    globalThis.setInterval = originalInterval;
  });

  it('names a forgotten interval by where it was made, until it is cleared', () => {
    const interval = setInterval(() => undefined, 60_000);
    let made: string[];
    try {
      made = openHandles().filter((line) => line.includes('setInterval'));
    } finally {
      clearInterval(interval);
    }
    expect(made.some((line) => line.includes('open-handles-reporter.spec.ts'))).toBe(true);
    expect(openHandles().some((line) => line.includes('setInterval'))).toBe(false);
  });

  it('leaves out an unref-ed timer, which holds nothing open', () => {
    const timer = setTimeout(() => undefined, 60_000).unref();
    expect(openHandles().some((line) => line.includes('setTimeout'))).toBe(false);
    clearTimeout(timer);
  });

  it('names a listening server and a connected socket by their ports', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // A failed expectation must not leave the server or the socket holding jest open.
    try {
      expect(openHandles()).toContain(`  Server listening on ${JSON.stringify({ address: '127.0.0.1', family: 'IPv4', port })}`);
      const client = connect(port, '127.0.0.1');
      try {
        await new Promise<void>((resolve) => client.once('connect', resolve));
        expect(openHandles()).toContain(`  Socket ${client.localPort} -> 127.0.0.1:${port}`);
      } finally {
        client.destroy();
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(openHandles().some((line) => line.includes(`"port":${port}`))).toBe(false);
  });
});
