import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import * as contracts from '@transmute/contracts';
import { ErrorCode, JobRefSchema, JobReplySchema, JobSchema, RouteSchema, ServiceFailure, SigningSecretReplySchema, SigningSecretRequestSchema } from '@transmute/contracts';
import { serveRpc } from './rpc';
import { replyValue, successReply, valueCaseOf } from './rpc-outcome';

const silent = { error: jest.fn() };
beforeEach(() => silent.error.mockClear());

function serveSecret(payload: unknown, handler: (accountId: string) => Promise<string>) {
  return serveRpc(SigningSecretRequestSchema, SigningSecretReplySchema, payload, ({ accountId }) => handler(accountId), { logger: silent });
}

const decoded = (json: JsonValue) => fromJson(SigningSecretReplySchema, json);

describe('serveRpc', () => {
  it('answers the handler value in the outcome', async () => {
    const reply = decoded(await serveSecret({ accountId: 'acme' }, async (id) => `secret-of-${id}`));
    expect(reply.outcome).toEqual({ case: 'secret', value: 'secret-of-acme' });
    expect(silent.error).not.toHaveBeenCalled();
  });

  it('answers a thrown ServiceFailure as the error outcome, unlogged', async () => {
    const reply = decoded(
      await serveSecret({ accountId: 'ghost' }, async () => {
        throw ServiceFailure.notFound('no account ghost');
      }),
    );
    expect(reply.outcome.case).toBe('error');
    expect(reply.outcome.value).toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'no account ghost', retryable: false });
    expect(silent.error).not.toHaveBeenCalled();
  });

  it.each([
    ['a string where an object belongs', 'not an object'],
    ['an unknown field', { accountId: 'acme', colour: 'red' }],
    ['a wrong field type', { accountId: 42 }],
  ])('answers INVALID_ARGUMENT to an undecodable request: %s', async (_name, payload) => {
    const handler = jest.fn(async () => 'never');
    const reply = decoded(await serveSecret(payload, handler));
    expect(handler).not.toHaveBeenCalled();
    expect(reply.outcome.case).toBe('error');
    expect(reply.outcome.value).toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    expect((reply.outcome.value as contracts.ServiceError).message).toContain('malformed transmute.v1.SigningSecretRequest');
  });

  it('answers an unexpected error as a retryable INTERNAL failure and logs its cause, not its text', async () => {
    const cause = new Error('connection string mongodb://user:pw@db leaked');
    const reply = decoded(
      await serveSecret({ accountId: 'acme' }, async () => {
        throw cause;
      }),
    );
    expect(reply.outcome.value).toMatchObject({ code: ErrorCode.INTERNAL, message: 'internal error', retryable: true });
    expect(silent.error).toHaveBeenCalledWith({ err: cause }, 'internal error');
  });

  it('uses the classify option for thrown errors', async () => {
    const reply = decoded(
      await serveRpc(
        SigningSecretRequestSchema,
        SigningSecretReplySchema,
        { accountId: 'acme' },
        () => {
          throw new Error('MongoNetworkError');
        },
        { logger: silent, classify: (error) => ServiceFailure.unavailable('the store is unavailable', error) },
      ),
    );
    expect(reply.outcome.value).toMatchObject({ code: ErrorCode.UNAVAILABLE, retryable: true, message: 'the store is unavailable' });
    expect(silent.error).toHaveBeenCalledTimes(1);
  });
});

describe('replyValue', () => {
  it('returns the value of a successful reply', () => {
    const job = create(JobSchema, { id: 'job-1' });
    expect(replyValue(JobReplySchema, successReply(JobReplySchema, job), 'jobs.get')).toBe(job);
  });

  it('throws the error outcome as the ServiceFailure it describes', () => {
    const reply = create(JobReplySchema, { outcome: { case: 'error', value: ServiceFailure.validation('bad tasks').toMessage() } });
    expect(() => replyValue(JobReplySchema, reply, 'jobs.create')).toThrow(expect.objectContaining({ code: ErrorCode.VALIDATION_FAILED, message: 'bad tasks' }));
  });

  it('throws a retryable INTERNAL failure for a reply with no outcome', () => {
    let thrown: unknown;
    try {
      replyValue(JobReplySchema, create(JobReplySchema), 'jobs.get');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceFailure);
    expect(thrown).toMatchObject({ code: ErrorCode.INTERNAL, retryable: true, message: 'jobs.get answered neither a job nor an error' });
  });
});

describe('the reply shape rule', () => {
  const replySchemas = Object.entries(contracts).filter(([name]) => /ReplySchema$/.test(name)) as [string, unknown][];

  it('finds the replies to check', () => {
    expect(replySchemas.length).toBeGreaterThanOrEqual(7);
  });

  it.each(replySchemas)('%s has one oneof outcome { value = 1; ServiceError error = 2; }', (_name, schema) => {
    expect(() => valueCaseOf(schema as never)).not.toThrow();
  });

  it.each([
    ['a message without a oneof', RouteSchema],
    ['a request message', JobRefSchema],
  ])('refuses %s', (_name, schema) => {
    expect(() => valueCaseOf(schema)).toThrow(/is not a reply/);
  });
});
