export type { ManagedService, RunningPlatform, StartPlatformOptions } from './platform-types';
export { DEFAULT_FAMILIES, DEFAULT_GATEWAY_PORT, serviceDefinitions, type ServiceDefinition } from './service-catalog';
export { DATABASE_NAME } from './service-env';
export { startPlatform } from './start-platform';
export { registeredFamilies } from './converter-families';
