export * from './infra';
export * from './platform';
export { freePort, freePorts } from './net/free-ports';
export { repoRoot } from './repo-root';
export { parseProcStat, pidListeningOn, processTreeCpuSeconds, processUsage, type ProcessUsage } from './process/proc-usage';
