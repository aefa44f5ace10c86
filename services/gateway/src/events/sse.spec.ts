import { eventName, formatEvent, parseLastEventId } from './sse';

describe('server-sent events', () => {
  it.each([
    ['waiting_upload', 'job.updated'],
    ['queued', 'job.updated'],
    ['converting', 'job.updated'],
    ['finished', 'job.finished'],
    ['failed', 'job.failed'],
  ])('names status %s %s', (status, name) => {
    expect(eventName(status)).toBe(name);
  });

  it('formats one event with id, name and one line of JSON data', () => {
    expect(formatEvent(7, 'job.updated', { a: 'x\ny' })).toBe('id: 7\nevent: job.updated\ndata: {"a":"x\\ny"}\n\n');
  });

  it.each([
    ['a sequence', '42', 42],
    ['one with spaces', ' 42 ', 42],
    ['a list (first value)', ['3', '4'], 3],
    ['absent', undefined, undefined],
    ['not a number', 'abc', undefined],
    ['negative', '-1', undefined],
  ])('reads Last-Event-ID: %s', (_name, header, expected) => {
    expect(parseLastEventId(header)).toBe(expected);
  });
});
