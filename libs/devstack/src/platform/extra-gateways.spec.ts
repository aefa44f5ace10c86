import { assignPorts, extraGatewayDefinitions, serviceDefinitions } from './service-catalog';

describe('extra gateway replicas', () => {
  it.each([
    [undefined, []],
    [1, []],
    [3, ['gateway-2', 'gateway-3']],
  ])('%p replicas add %j', (replicas, names) => {
    const extra = extraGatewayDefinitions(replicas);
    expect(extra.map((def) => def.name)).toEqual(names);
    expect(extra.every((def) => def.dir === 'gateway')).toBe(true);
  });

  it('gives every replica its own port', async () => {
    const definitions = [...serviceDefinitions(), ...extraGatewayDefinitions(2)];
    const fixed = await assignPorts(definitions, 8080);
    expect(fixed.get('gateway')).toBe(8080);
    expect(fixed.get('gateway-2')).toBe(8070);
    const free = await assignPorts(definitions, 0);
    expect(new Set(free.values()).size).toBe(definitions.length);
  });
});
