import { SubjectServerNats } from './subject-server-nats';

describe('SubjectServerNats', () => {
  const handler = Object.assign(() => Promise.resolve('answered'), { isEventHandler: false });

  it("finds a plain subject's handler without reading the subject as JSON", () => {
    const server = new SubjectServerNats({});
    server.addHandler('jobs.create', handler);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(server.getHandlerByPattern('jobs.create')).toBe(handler);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it("still finds a handler registered under a JSON pattern, as Nest's own server does", () => {
    const server = new SubjectServerNats({});
    server.addHandler({ cmd: 'sum' }, handler);
    expect(server.getHandlerByPattern('{"cmd":"sum"}')).toBe(handler);
    expect(server.getHandlerByPattern('jobs.unknown')).toBeNull();
  });
});
