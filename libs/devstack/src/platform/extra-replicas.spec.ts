import { CONVERTER_ALLOCATOR_ENV, assignPorts, extraReplicaDefinitions, serviceDefinitions } from './service-catalog';

describe('extra replicas of any service', () => {
  const services = serviceDefinitions(['image']);

  it('adds <name>-2 … with the same folder and environment', () => {
    const extra = extraReplicaDefinitions(services, { 'job-orchestrator': 2, 'converter-image': 3 });
    expect(extra.map((def) => [def.name, def.dir, def.env])).toEqual([
      ['job-orchestrator-2', 'job-orchestrator', {}],
      ['converter-image-2', 'converter', { ...CONVERTER_ALLOCATOR_ENV, TRANSMUTE_CONVERTER_FAMILY: 'image' }],
      ['converter-image-3', 'converter', { ...CONVERTER_ALLOCATOR_ENV, TRANSMUTE_CONVERTER_FAMILY: 'image' }],
    ]);
  });

  it('refuses a service that is not started', () => {
    expect(() => extraReplicaDefinitions(services, { 'converter-video': 2 })).toThrow('no service converter-video to replicate');
  });

  it('gives every replica its own port', async () => {
    const definitions = [...services, ...extraReplicaDefinitions(services, { 'job-orchestrator': 2, 'converter-image': 2 })];
    const fixed = await assignPorts(definitions, 8080);
    expect(new Set(fixed.values()).size).toBe(definitions.length);
    const free = await assignPorts(definitions, 0);
    expect(new Set(free.values()).size).toBe(definitions.length);
  });
});
