import { freePorts } from '../net/free-ports';

/** One process of the platform. */
export interface ServiceDefinition {
  /** Logical name: the folder under services/, or converter-<family>. */
  name: string;
  /** Folder under services/ holding dist/main.js. */
  dir: string;
  /** Port used unless the caller asks for free ports. */
  defaultPort: number;
  /** Variables only this process gets (e.g. its converter family). */
  env: Record<string, string>;
}

export const GATEWAY = 'gateway';
export const DEFAULT_GATEWAY_PORT = 8080;
export const DEFAULT_FAMILIES: readonly string[] = ['image'];
const FIRST_CONVERTER_PORT = 8090;

/**
 * glibc raises its mmap threshold after the first large free, so a
 * converter's native engines (libvips) keep every large buffer in its heap:
 * 37 MB PNG to WebP three times in a row peaked at 410 MB and left 249 MB.
 * Pinned at glibc's own starting value, large buffers go back to the system:
 * 292 MB, then 114 MB. The Dockerfile's converter target sets the same.
 */
export const CONVERTER_ALLOCATOR_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

const CORE_SERVICES: ReadonlyArray<readonly [name: string, port: number]> = [
  [GATEWAY, DEFAULT_GATEWAY_PORT],
  ['job-orchestrator', 8081],
  ['importer', 8082],
  ['exporter', 8083],
  ['webhook-dispatcher', 8084],
  ['catalogue', 8085],
  ['mcp', 8086],
];

/** Every process to run: the core services, then one converter per family. */
export function serviceDefinitions(families: readonly string[] = DEFAULT_FAMILIES): ServiceDefinition[] {
  const unique = new Set(families);
  if (unique.size !== families.length) throw new Error(`converter families listed twice: ${families.join(', ')}`);
  return [
    ...CORE_SERVICES.map(([name, defaultPort]) => ({ name, dir: name, defaultPort, env: {} })),
    ...families.map((family, index) => ({
      name: `converter-${family}`,
      dir: 'converter',
      defaultPort: FIRST_CONVERTER_PORT + index,
      env: { ...CONVERTER_ALLOCATOR_ENV, TRANSMUTE_CONVERTER_FAMILY: family },
    })),
  ];
}

/** Default port of the second gateway replica; the n-th is one higher each. */
const FIRST_EXTRA_GATEWAY_PORT = 8070;

/**
 * Gateway replicas beyond the first (`gateway-2`, `gateway-3` …), for tests
 * that prove what replicas share (rate limits, key deletion).
 */
export function extraGatewayDefinitions(replicas = 1): ServiceDefinition[] {
  return Array.from({ length: Math.max(0, replicas - 1) }, (_, index) => ({
    name: `${GATEWAY}-${index + 2}`,
    dir: GATEWAY,
    defaultPort: FIRST_EXTRA_GATEWAY_PORT + index,
    env: {},
  }));
}

/** Replicas beyond the first of any service (`<name>-2`, `<name>-3` …), on free ports like everything else. */
export function extraReplicaDefinitions(services: readonly ServiceDefinition[], replicas: Record<string, number> = {}): ServiceDefinition[] {
  return Object.entries(replicas).flatMap(([name, count]) => {
    const base = services.find((service) => service.name === name);
    if (!base) throw new Error(`no service ${name} to replicate; known: ${services.map((service) => service.name).join(', ')}`);
    return Array.from({ length: Math.max(0, count - 1) }, (_, index) => ({ ...base, name: `${name}-${index + 2}`, defaultPort: base.defaultPort + 100 * (index + 1) }));
  });
}

/**
 * HTTP port per service name. gatewayPort 0 means "free ports for everything"
 * (tests running side by side); any other value moves only the gateway and
 * keeps the fixed defaults for the rest (what `make up` prints stays stable).
 */
export async function assignPorts(services: readonly ServiceDefinition[], gatewayPort: number = DEFAULT_GATEWAY_PORT): Promise<Map<string, number>> {
  if (gatewayPort === 0) {
    const ports = await freePorts(services.length);
    return new Map(services.map((service, i) => [service.name, ports[i] as number]));
  }
  return new Map(services.map((service) => [service.name, service.name === GATEWAY ? gatewayPort : service.defaultPort]));
}
