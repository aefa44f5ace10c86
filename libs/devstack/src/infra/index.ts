export { ContainersInfraProvider } from './containers-infra-provider';
export { createInfraProvider } from './create-infra-provider';
export type { InfraProvider, InfraStartOptions, RunningInfra } from './infra-provider';
export { LocalProcessInfraProvider, type LocalProcessInfraOptions } from './local-process-infra-provider';
