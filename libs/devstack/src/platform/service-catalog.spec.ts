import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../repo-root';
import { CONVERTER_ALLOCATOR_ENV, assignPorts, serviceDefinitions } from './service-catalog';

describe('serviceDefinitions', () => {
  it('lists the core services, then one converter process per family', () => {
    const services = serviceDefinitions(['image', 'video']);

    expect(services.map(({ name, dir, defaultPort }) => [name, dir, defaultPort])).toEqual([
      ['gateway', 'gateway', 8080],
      ['job-orchestrator', 'job-orchestrator', 8081],
      ['importer', 'importer', 8082],
      ['exporter', 'exporter', 8083],
      ['webhook-dispatcher', 'webhook-dispatcher', 8084],
      ['catalogue', 'catalogue', 8085],
      ['mcp', 'mcp', 8086],
      ['converter-image', 'converter', 8090],
      ['converter-video', 'converter', 8091],
    ]);
    expect(services.find((s) => s.name === 'converter-video')?.env).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072', TRANSMUTE_CONVERTER_FAMILY: 'video' });
  });

  it("gives local converters the allocator settings the converter image's Dockerfile sets", () => {
    const dockerfile = readFileSync(join(repoRoot(), 'Dockerfile'), 'utf8');
    for (const [name, value] of Object.entries(CONVERTER_ALLOCATOR_ENV)) expect(dockerfile).toMatch(new RegExp(`^\\s*${name}=${value}\\s*$`, 'm'));
    expect(dockerfile.match(/MALLOC_[A-Z_]+=/g)?.map((setting) => setting.slice(0, -1))).toEqual(Object.keys(CONVERTER_ALLOCATOR_ENV));
  });

  it('runs the image family by default', () => {
    expect(
      serviceDefinitions()
        .filter((s) => s.dir === 'converter')
        .map((s) => s.name),
    ).toEqual(['converter-image']);
  });

  it('rejects a family listed twice', () => {
    expect(() => serviceDefinitions(['image', 'image'])).toThrow('converter families listed twice');
  });
});

describe('assignPorts', () => {
  const services = serviceDefinitions(['image']);

  it.each([
    { scenario: 'default gateway port', gatewayPort: undefined, gateway: 8080 },
    { scenario: 'moved gateway', gatewayPort: 9999, gateway: 9999 },
  ])('keeps the fixed ports with a $scenario', async ({ gatewayPort, gateway }) => {
    const ports = await assignPorts(services, gatewayPort);

    expect(ports.get('gateway')).toBe(gateway);
    expect(ports.get('job-orchestrator')).toBe(8081);
    expect(ports.get('converter-image')).toBe(8090);
  });

  it('picks distinct free ports for every service when the gateway port is 0', async () => {
    const ports = await assignPorts(services, 0);

    expect([...ports.keys()]).toEqual(services.map((s) => s.name));
    expect(new Set(ports.values()).size).toBe(services.length);
    expect([...ports.values()].every((port) => port > 0)).toBe(true);
  });
});
