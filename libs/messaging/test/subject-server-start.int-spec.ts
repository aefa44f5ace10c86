import { infraFixture } from '@transmute/devstack';
import { SubjectServerNats } from '../src/subject-server-nats';

/*
 * A request sent from another connection the moment the server says it has
 * started must find it: started means the NATS server holds the
 * subscriptions, not that they were queued to be sent.
 */
const fixture = infraFixture();

test('a request right after the start is answered, on each of 30 fresh starts', async () => {
  const handler = Object.assign(() => Promise.resolve('answered'), { isEventHandler: false });
  const refused: number[] = [];
  for (let start = 0; start < 30; start++) {
    const subject = `start.check.${start}`;
    const server = new SubjectServerNats({ servers: [fixture.infra.natsUrl] });
    server.addHandler(subject, handler);
    await new Promise<void>((resolve, reject) => void server.listen((error?: unknown) => (error ? reject(new Error('the server did not start', { cause: error })) : resolve())));
    try {
      await fixture.nc.request(subject, new TextEncoder().encode(JSON.stringify({ pattern: subject, data: {}, id: String(start) })), { timeout: 2_000 });
    } catch {
      refused.push(start);
    } finally {
      await server.close();
    }
  }
  expect(refused).toEqual([]);
});
