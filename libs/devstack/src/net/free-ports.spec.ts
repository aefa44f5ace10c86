import { createServer } from 'node:net';
import { freePorts } from './free-ports';

describe('freePorts', () => {
  it('returns distinct ports that can be bound on the loopback address', async () => {
    const ports = await freePorts(12);

    expect(new Set(ports).size).toBe(12);
    for (const port of ports) {
      await new Promise<void>((resolve, reject) => {
        const server = createServer().once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
      });
    }
  });

  it('returns nothing when asked for nothing', async () => {
    await expect(freePorts(0)).resolves.toEqual([]);
  });
});
