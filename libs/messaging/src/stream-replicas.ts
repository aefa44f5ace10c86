import type { NatsConnection } from 'nats';

/**
 * How many NATS servers keep a copy of every stream and KV bucket this
 * connection creates (TRANSMUTE_NATS_REPLICAS). Kept beside the connection,
 * not passed to each bucket, so that no stream or bucket of any service can
 * be made with fewer copies than the platform's NATS cluster promises.
 */
const replicasByConnection = new WeakMap<NatsConnection, number>();

export function setStreamReplicas(connection: NatsConnection, replicas: number): void {
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) throw new Error(`stream replicas must be 1 to 5, got ${replicas}`);
  replicasByConnection.set(connection, replicas);
}

/** 1 for a connection made outside NatsModule (tests, the admin CLI against a single server). */
export function streamReplicasOf(connection: NatsConnection): number {
  return replicasByConnection.get(connection) ?? 1;
}
