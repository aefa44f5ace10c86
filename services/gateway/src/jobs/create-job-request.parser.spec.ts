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
          'from-gcs': { operation: 'import/googlecloud', client_email: 'e@x', project_id: 'proj', file: 'ignored-but-mapped' },
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
    expect(request.tasks['from-gcs']).toMatchObject({ clientEmail: 'e@x', projectId: 'proj', file: 'ignored-but-mapped' });
  });

  it.each([
    ['sandbox flag', { sandbox: true, tasks: {} }, { sandbox: true }],
    ['null optional fields count as absent', { tag: null, tasks: { a: { operation: 'import/url', url: null, port: null, options: null } } }, { sandbox: false }],
    ['import_id without tasks', { import_id: 'a'.repeat(32), output_format: 'pdf' }, { sandbox: false }],
  ])('accepts %s', (_name, body, expected) => {
    expect(parseCreateJobBody(body, context)).toMatchObject(expected);
  });

  it('builds an import_id job around the import', () => {
    const { request } = parseCreateJobBody({ import_id: 'a'.repeat(32), output_format: 'pdf' }, context);
    expect(request).toMatchObject({ importId: 'a'.repeat(32), outputFormat: 'pdf', tasks: {}, taskOrder: [] });
  });

  it.each([
    ['a body that is not an object', [1, 2], 'the request body must be a JSON object'],
    ['a number body', 42, 'the request body must be a JSON object'],
    ['missing tasks', { tag: 'x' }, 'tasks is required'],
    ['tasks as an array', { tasks: [{ operation: 'convert' }] }, 'tasks must be an object'],
    ['tasks as a string', { tasks: 'a' }, 'tasks must be an object'],
    ['a task that is not an object', { tasks: { a: 'convert' } }, 'task a must be an object'],
    ['a task without operation', { tasks: { a: {} } }, 'task a: operation is required'],
    ['an operation that is not a string', { tasks: { a: { operation: 7 } } }, 'task a: operation must be a string'],
    ['input of the wrong type', { tasks: { a: { operation: 'convert', input: 3 } } }, 'task a: input must be a task name or an array of task names'],
    ['input array with a number', { tasks: { a: { operation: 'export/url', input: ['b', 1] } } }, 'task a: input must be'],
    ['url not a string', { tasks: { a: { operation: 'import/url', url: ['x'] } } }, 'task a: url must be a string'],
    ['output_format not a string', { tasks: { c: { operation: 'convert', output_format: 5 } } }, 'task c: output_format must be a string'],
    ['options not an object', { tasks: { c: { operation: 'convert', options: [1] } } }, 'task c: options must be an object'],
    ['port as a string', { tasks: { s: { operation: 'import/sftp', port: '22' } } }, 'task s: port must be a whole number'],
    ['port out of range', { tasks: { s: { operation: 'import/sftp', port: 70_000 } } }, 'task s: port must be a whole number'],
    ['secret_access_key not a string', { tasks: { s: { operation: 'export/s3', secret_access_key: 1 } } }, 'task s: secret_access_key must be a string'],
    ['tag not a string', { tag: 1, tasks: {} }, 'tag must be a string'],
    ['tag too long', { tag: 'x'.repeat(256), tasks: {} }, 'tag is longer than 255 characters'],
    ['sandbox not a boolean', { sandbox: 'yes', tasks: {} }, 'sandbox must be true or false'],
    ['import_id malformed', { import_id: 'ABC', tasks: {} }, 'import_id must be 32 lowercase hexadecimal characters'],
    ['webhook_url not a string', { webhook_url: {}, tasks: {} }, 'webhook_url must be a string'],
    ['top-level output_format not a string', { output_format: true, tasks: {} }, 'output_format must be a string'],
    ['a __proto__ task name', JSON.parse('{"tasks":{"__proto__":{"operation":"convert"}}}'), 'task name __proto__ is not allowed'],
  ])('rejects %s with 422', (_name, body, message) => {
    const failure = failureOf(body);
    expect(failure.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(failure.message).toContain(message);
  });

  it('counts tag length in characters, not UTF-16 units', () => {
    expect(() => parseCreateJobBody({ tag: '😀'.repeat(255), tasks: {} }, context)).not.toThrow();
  });
});
