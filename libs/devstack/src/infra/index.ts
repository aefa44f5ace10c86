export { ContainersInfraProvider } from './containers-infra-provider';
export { createInfraProvider } from './create-infra-provider';
export { infraFixture, type InfraFixture } from './infra-fixture';
export type { InfraProvider, InfraService, InfraStartOptions, RunningInfra } from './infra-provider';
export { LocalProcessInfraProvider, type LocalProcessInfraOptions } from './local-process-infra-provider';
export { startMinio, type RunningMinio } from './minio-server';
export { natsClusterPorts, startNatsCluster, startNatsServer, type NatsServerPorts, type RunningNatsCluster, type RunningNatsServer } from './nats-cluster';
export { startFakeGcs, type RunningFakeGcs } from './fake-gcs-server';
export { startSshd, type RunningSshd, SFTP_TEST_USER } from './sshd-server';
