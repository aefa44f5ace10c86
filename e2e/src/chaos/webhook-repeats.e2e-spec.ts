import type { FaultRecord } from './fault-injector';
import type { ReceivedWebhook } from './loopback-servers';
import { webhookRepeats } from './webhook-repeats';

const receipt = (deliveryId: string, attempt: string, at: number): ReceivedWebhook => ({ deliveryId, attempt, event: 'job.finished', jobId: 'j', at });
const kill = (fault: string, killedAt: number): FaultRecord => ({ fault, killedAt });

describe('webhookRepeats (the chaos run’s duplicate-webhook verdict)', () => {
  it('explains the same attempt received again after the dispatcher was killed right behind it', () => {
    const repeats = webhookRepeats([receipt('d1', '1', 10_000), receipt('d1', '1', 45_000), receipt('d2', '1', 10_100)], [kill('webhook-dispatcher', 10_050)]);
    expect(repeats).toEqual({ unexplained: [], resentAfterDispatcherKill: ['d1'] });
  });

  it('does not explain a repeat when no dispatcher was killed, or another service was', () => {
    expect(webhookRepeats([receipt('d1', '1', 10_000), receipt('d1', '1', 45_000)], [kill('nats', 10_050)]).unexplained).toEqual(['d1']);
  });

  it('does not explain a repeat whose kill came long after, or before, the first receipt', () => {
    expect(webhookRepeats([receipt('d1', '1', 10_000), receipt('d1', '1', 45_000)], [kill('webhook-dispatcher', 30_000)]).unexplained).toEqual(['d1']);
    expect(webhookRepeats([receipt('d1', '1', 10_000), receipt('d1', '1', 45_000)], [kill('webhook-dispatcher', 9_000)]).unexplained).toEqual(['d1']);
  });

  it('does not explain a later attempt acknowledged again, nor a third receipt', () => {
    expect(webhookRepeats([receipt('d1', '1', 10_000), receipt('d1', '2', 45_000)], [kill('webhook-dispatcher', 10_050)]).unexplained).toEqual(['d1']);
    expect(webhookRepeats([receipt('d1', '1', 10_000), receipt('d1', '1', 45_000), receipt('d1', '1', 46_000)], [kill('webhook-dispatcher', 10_050)]).unexplained).toEqual(['d1']);
  });
});
