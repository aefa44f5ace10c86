import type { NatsConnection } from 'nats';
import { setStreamReplicas, streamReplicasOf } from './stream-replicas';

describe('stream replicas', () => {
  const connection = () => ({}) as NatsConnection;

  it('is what the connection was given, and 1 for a connection nobody set', () => {
    const clustered = connection();
    setStreamReplicas(clustered, 3);
    expect(streamReplicasOf(clustered)).toBe(3);
    expect(streamReplicasOf(connection())).toBe(1);
  });

  it('refuses what NATS cannot do', () => {
    expect(() => setStreamReplicas(connection(), 0)).toThrow(/1 to 5/);
    expect(() => setStreamReplicas(connection(), 6)).toThrow(/1 to 5/);
  });
});
