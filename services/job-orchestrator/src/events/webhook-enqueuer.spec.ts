import type { LiveTask } from '../store/live-job';
import { webhookDeliveryId, webhookTargets } from './webhook-enqueuer';

const task = (name: string, operation: string, url?: string) => ({ name, operation, spec: url === undefined ? null : { operation, url } }) as unknown as LiveTask;

describe('webhookTargets', () => {
  it.each([
    [
      'export/webhook tasks in the client order, then the job-level URL',
      ['b', 'a', 'c'],
      'https://job.example/hook',
      ['https://b.example/', 'https://a.example/', 'https://job.example/hook'],
    ],
    ['no targets at all', ['c'], '', []],
    ['a URL named twice gets one delivery', ['a', 'b', 'a2'], 'https://a.example/', ['https://a.example/', 'https://b.example/']],
  ])('%s', (_name, order, webhookUrl, expected) => {
    const tasks = [
      task('a', 'export/webhook', 'https://a.example/'),
      task('a2', 'export/webhook', 'https://a.example/'),
      task('b', 'export/webhook', 'https://b.example/'),
      task('c', 'export/url', 'https://not-a-target.example/'),
    ];
    expect(webhookTargets({ taskOrder: order, webhookUrl, tasks: Object.fromEntries(tasks.map((t) => [t.name, t])) })).toEqual(expected);
  });

  it('ignores a webhook task whose spec was already erased', () => {
    expect(webhookTargets({ taskOrder: ['a'], webhookUrl: '', tasks: { a: task('a', 'export/webhook') } })).toEqual([]);
  });
});

describe('webhookDeliveryId', () => {
  it('is 32 hex, stable for one job and URL, different otherwise', () => {
    const id = webhookDeliveryId('a'.repeat(32), 'https://x.example/');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(webhookDeliveryId('a'.repeat(32), 'https://x.example/')).toBe(id);
    expect(webhookDeliveryId('b'.repeat(32), 'https://x.example/')).not.toBe(id);
    expect(webhookDeliveryId('a'.repeat(32), 'https://y.example/')).not.toBe(id);
  });
});
