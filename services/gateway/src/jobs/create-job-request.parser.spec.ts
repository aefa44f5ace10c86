import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { parseCreateJobBody } from './create-job-request.parser';

const context = { accountId: 'dev', convertAllowance: 10 };

function failureOf(body: unknown): ServiceFailure {
  try {
    parseCreateJobBody(body, context);
  } catch (error) {
    if (error instanceof ServiceFailure) return error;
    throw error;
  }
  throw new Error('expected the body to be rejected');
}

describe('parseCreateJobBody', () => {
  it('maps every spec field of a task and keeps the client order', () => {
    const { sandbox, request } = parseCreateJobBody(
      {
        tag: 'invoice-42',
        webhook_url: 'https://example.com/hook',
        unknown_top_level_field: 'ignored',
        tasks: {
          'upload-my-file': { operation: 'import/upload', filename: 'photo.png' },
          'convert-my-file': {
            operation: 'convert',
            input: 'upload-my-file',
            input_format: 'png',
            output_format: 'jpg',
            options: { quality: 80, strip: true, nested: { a: [1, 'b'] } },
          },
          'export-my-file': { operation: 'export/url', input: ['convert-my-file'] },
          'to-s3': {
            operation: 'export/s3',
            input: ['convert-my-file'],
            bucket: 'b',
            region: 'eu-west-1',
            key: 'out/x.jpg',
            access_key_id: 'AKIA',
            secret_access_key: 'secret',
            session_token: 'session',
            endpoint: 'https://s3.example.com',
          },
          'from-sftp': {
            operation: 'import/sftp',
            host: 'sftp.example.com',
            port: 2222,
            username: 'u',
            password: 'p',
            private_key: 'pk',
            path: '/in/a.png',
          },
          'from-gcs': {
            operation: 'import/googlecloud',
            bucket: 'in',
            key: 'in/a.png',
            client_email: 'e@x',
            private_key: 'gk',
            project_id: 'proj',
            file: 'dropped: not a field of this operation',
          },
        },
      },
      context,
    );

    expect(sandbox).toBe(false);
    expect(request.taskOrder).toEqual(['upload-my-file', 'convert-my-file', 'export-my-file', 'to-s3', 'from-sftp', 'from-gcs']);
    expect(request).toMatchObject({ tag: 'invoice-42', webhookUrl: 'https://example.com/hook', accountId: 'dev', convertAllowance: 10 });
    expect(request.tasks['upload-my-file']).toMatchObject({ operation: 'import/upload', filename: 'photo.png', input: [], inputIsList: false });
    expect(request.tasks['convert-my-file']).toMatchObject({
      input: ['upload-my-file'],
      inputIsList: false,
      inputFormat: 'png',
      outputFormat: 'jpg',
      options: { quality: 80, strip: true, nested: { a: [1, 'b'] } },
    });
    expect(request.tasks['export-my-file']).toMatchObject({ input: ['convert-my-file'], inputIsList: true });
    expect(request.tasks['to-s3']).toMatchObject({
      bucket: 'b',
      region: 'eu-west-1',
      key: 'out/x.jpg',
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
      sessionToken: 'session',
      endpoint: 'https://s3.example.com',
    });
    expect(request.tasks['from-sftp']).toMatchObject({ host: 'sftp.example.com', port: 2222, username: 'u', password: 'p', privateKey: 'pk', path: '/in/a.png' });
    expect(request.tasks['from-gcs']).toMatchObject({ bucket: 'in', clientEmail: 'e@x', projectId: 'proj', file: '' });
  });

  it.each([
    ['sandbox flag', { sandbox: true, tasks: {} }, { sandbox: true }],
    [
      'null optional fields count as absent',
      { tag: null, webhook_url: null, tasks: { a: { operation: 'import/upload', filename: null, input_format: null } } },
      { sandbox: false },
    ],
    ['import_id without tasks', { import_id: 'a'.repeat(32), output_format: 'pdf' }, { sandbox: false }],
  ])('accepts %s', (_name, body, expected) => {
    expect(parseCreateJobBody(body, context)).toMatchObject(expected);
  });

  it('builds an import_id job around the import', () => {
    const { request } = parseCreateJobBody({ import_id: 'a'.repeat(32), output_format: 'pdf' }, context);
    expect(request).toMatchObject({ importId: 'a'.repeat(32), outputFormat: 'pdf', tasks: {}, taskOrder: [] });
  });

  it.each([
    ['a body that is not an object', [1, 2], 'the request body must be an object'],
    ['a number body', 42, 'the request body must be an object'],
    ['missing tasks', { tag: 'x' }, 'tasks is required'],
    ['tasks as an array', { tasks: [{ operation: 'convert' }] }, 'tasks must be an object'],
    ['tasks as a string', { tasks: 'a' }, 'tasks must be an object'],
    ['a task that is not an object', { tasks: { a: 'convert' } }, 'task a must be an object'],
    ['a task without operation', { tasks: { a: {} } }, 'rule 1 (operation must be one of the twelve): task a: operation must be one of import/upload'],
    ['an operation that is not a string', { tasks: { a: { operation: 7 } } }, 'rule 1 (operation must be one of the twelve): task a: operation'],
    ['an unknown operation', { tasks: { a: { operation: 'import/ftp' } } }, 'rule 1 (operation must be one of the twelve): task a: operation'],
    ['input of the wrong type', { tasks: { a: { operation: 'convert', input: 3, output_format: 'png' } } }, 'task a: input'],
    ['input array with a number', { tasks: { a: { operation: 'export/url', input: ['b', 1] } } }, 'task a: input'],
    ['url not a string', { tasks: { a: { operation: 'import/url', url: ['x'] } } }, 'task a: url must be a string'],
    ['url not http(s)', { tasks: { a: { operation: 'import/url', url: 'ftp://example.com/a.png' } } }, 'task a: url must be a valid url'],
    ['output_format not a string', { tasks: { c: { operation: 'convert', input: 'a', output_format: 5 } } }, 'task c: output_format must be a string'],
    ['output_format malformed', { tasks: { c: { operation: 'convert', input: 'a', output_format: 'j.pg' } } }, 'task c: output_format does not match'],
    ['options not an object', { tasks: { c: { operation: 'convert', input: 'a', output_format: 'png', options: [1] } } }, 'task c: options must be an object'],
    ['port as a string', { tasks: { s: { operation: 'import/sftp', host: 'h', username: 'u', port: '22' } } }, 'task s: port must be a number'],
    ['port out of range', { tasks: { s: { operation: 'import/sftp', host: 'h', username: 'u', port: 70_000 } } }, 'task s: port'],
    ['tag not a string', { tag: 1, tasks: {} }, 'tag must be a string'],
    ['tag too long', { tag: 'x'.repeat(256), tasks: {} }, 'tag is longer than 255 characters'],
    ['sandbox not a boolean', { sandbox: 'yes', tasks: {} }, 'sandbox must be a boolean'],
    ['import_id malformed', { import_id: 'ABC', tasks: {} }, 'import_id does not match'],
    ['webhook_url not a string', { webhook_url: {}, tasks: {} }, 'webhook_url must be a string'],
    ['top-level output_format not a string', { output_format: true, tasks: {} }, 'output_format must be a string'],
    ['a task name with a space', { tasks: { 'a b': { operation: 'import/upload' } } }, 'task name "a b" must be 1 to 64 letters'],
    ['a __proto__ task name', JSON.parse('{"tasks":{"__proto__":{"operation":"convert"}}}'), 'task name __proto__ is not allowed'],
  ])('rejects %s with 422', (_name, body, message) => {
    const failure = failureOf(body);
    expect(failure.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(failure.message).toContain(message);
  });

  it('accepts a tag of exactly 255 characters', () => {
    expect(parseCreateJobBody({ tag: 'x'.repeat(255), tasks: {} }, context).request.tag).toHaveLength(255);
  });
});
