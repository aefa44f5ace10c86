/**
 * The REST API's contract on the running platform, endpoint by endpoint and
 * rule by rule (issue 3): catalogue, job validation (rules 1 to 6 and the
 * other checks), sandbox, errors, imports and their proxy route, downloads,
 * and the OpenAPI document every reply here is validated against (by the
 * shared client).
 */
import { randomBytes } from 'node:crypto';
import { type Job, gradientPng, jobShapeProblems, taskOf } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { expectError, expectJob, standardTasks } from './helpers';

/** Small, so the 413 test need not send much. */
const IMPORT_CEILING = 200_000;
const env = platformFixture({ name: 'rest-contract', extraEnv: { TRANSMUTE_IMPORT_MAX_BYTES: String(IMPORT_CEILING) } });

const JOBS = '/v1/process/jobs';
const hex32 = () => randomBytes(16).toString('hex');

describe('GET /openapi.json', () => {
  test('is OpenAPI 3.1, version 1.0.0, with every path and method of the API', async () => {
    const document = await env().client.openApi();
    expect(document['openapi']).toBe('3.1.0');
    expect(document['info']).toMatchObject({ version: '1.0.0' });
    // The gateway names itself (TRANSMUTE_PUBLIC_URL) as the server.
    expect(document['servers']).toEqual([{ url: env().platform.env['TRANSMUTE_PUBLIC_URL'], description: 'This installation' }]);
    const paths = document['paths'] as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    expect(Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, Object.keys(item).sort()]))).toEqual({
      '/v1/formats': ['get'],
      '/v1/options': ['get'],
      '/v1/process/jobs': ['post'],
      '/v1/process/jobs/{jobId}': ['get'],
      '/v1/process/jobs/{jobId}/complete-upload': ['post'],
      '/v1/process/jobs/{jobId}/events': ['get'],
      '/v1/process/jobs/{jobId}/webhooks': ['get'],
      '/v1/imports': ['post'],
      '/v1/imports/{importId}/content': ['post', 'put'],
      '/v1/download/{token}': ['get'],
    });
    expect(Object.keys(paths['/v1/process/jobs']?.['post']?.responses ?? {}).sort()).toEqual(['200', '201', '400', '401', '402', '403', '413', '422', '429', '503']);
    const schemas = (document['components'] as { schemas: Record<string, unknown> }).schemas;
    for (const name of ['Job', 'TaskRecord', 'JobCreateRequest', 'Task', 'ConvertTask', 'Error', 'FormatList', 'OptionList', 'ConversionOption', 'Import']) {
      expect(schemas).toHaveProperty(name);
    }
  });
});

describe('GET /v1/formats and /v1/options', () => {
  test('lists every readable format, sorted and lowercase, with its count', async () => {
    const reply = await env().client.request('GET', '/v1/formats');
    expect(reply.status).toBe(200);
    const body = reply.json as { status: string; count: number; formats: string[] };
    expect(body.status).toBe('success');
    expect(body).not.toHaveProperty('input_format');
    expect(body.count).toBe(body.formats.length);
    expect(body.formats).toEqual([...body.formats].sort());
    expect(body.formats).toContain('png');
    for (const format of body.formats) expect(format).toMatch(/^[a-z0-9]{1,16}$/);
  });

  test('lists the targets of one input, echoing it lowercase', async () => {
    const reply = await env().client.request('GET', '/v1/formats?input_format=PNG');
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ status: 'success', input_format: 'png' });
    const body = reply.json as { count: number; formats: string[] };
    expect(body.formats).toContain('jpg');
    expect(body.count).toBe(body.formats.length);
  });

  test.each([
    ['malformed', '/v1/formats?input_format=p.ng', 400],
    ['too long', `/v1/formats?input_format=${'a'.repeat(17)}`, 400],
    ['empty', '/v1/formats?input_format=', 400],
    ['given twice', '/v1/formats?input_format=png&input_format=jpg', 400],
    ['converted by nothing', '/v1/formats?input_format=zzzz', 404],
    ['options without output_format', '/v1/options?input_format=png', 400],
    ['options without input_format', '/v1/options?output_format=jpg', 400],
    ['options with a malformed format', '/v1/options?input_format=png&output_format=j-pg', 400],
    ['options of an unknown format', '/v1/options?input_format=zzzz&output_format=jpg', 404],
    ['options of an unconverted pair', '/v1/options?input_format=png&output_format=zzzz', 404],
  ])('%s: %s answers %s', async (_name, path, status) => {
    expectError(await env().client.request('GET', path), status);
  });

  test('options of a pair, formats echoed lowercase', async () => {
    const reply = await env().client.request('GET', '/v1/options?input_format=PNG&output_format=JpG');
    expect(reply.status).toBe(200);
    const body = reply.json as { status: string; input_format: string; output_format: string; count: number; options: { name: string; type: string }[] };
    expect(body).toMatchObject({ status: 'success', input_format: 'png', output_format: 'jpg' });
    expect(body.count).toBe(body.options.length);
    for (const option of body.options) expect(option).toEqual(expect.objectContaining({ name: expect.any(String), type: expect.any(String) }));
  });

  test('renders option fields with their JSON types: integer bounds, typed defaults, labelled values, applies_when', async () => {
    const reply = await env().client.request('GET', '/v1/options?input_format=png&output_format=webp');
    const options = (reply.json as { options: Array<Record<string, unknown>> }).options;
    const named = (name: string) => options.find((option) => option['name'] === name);
    expect(named('quality')).toMatchObject({ type: 'range', min: 1, max: 100, step: 1, default: 80, applies_when: { lossless: 'false' } });
    expect(named('lossless')).toMatchObject({ type: 'checkbox', default: false });
    expect(named('fit')).toMatchObject({ type: 'select', default: 'inside', values: expect.arrayContaining([{ value: 'inside', label: 'inside' }]) });
    // Bounds are JSON integers in the body itself, not strings.
    expect(reply.text).toMatch(/"min":1,"max":100,"step":1/);
  });

  test('need a key: 401 without one', async () => {
    expectError(await env().client.request('GET', '/v1/formats', { auth: false }), 401);
    expectError(await env().client.request('GET', '/v1/options?input_format=png&output_format=jpg', { auth: false }), 401);
  });

  test('every pair /v1/formats lists is a pair job creation accepts, and an unlisted one is refused', async () => {
    const { client } = env();
    const inputs = (await client.request('GET', '/v1/formats')).json as { formats: string[] };
    const pairs: [string, string][] = [];
    for (const input of inputs.formats) {
      const targets = (await client.request('GET', `/v1/formats?input_format=${input}`)).json as { formats: string[] };
      for (const output of targets.formats) pairs.push([input, output]);
    }
    expect(pairs.length).toBeGreaterThan(0);
    // Thousands of pairs: sandbox creations (validated like real jobs, nothing stored), a few at a time,
    // with the dev key: keyless sandbox calls are limited per address, keyed ones count against the key.
    const refused: string[] = [];
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < pairs.length; index = next++) {
        const [input, output] = pairs[index] as [string, string];
        const reply = await client.request('POST', JOBS, { json: { sandbox: true, tasks: standardTasks(input, output) } });
        if (reply.status !== 200) refused.push(`${input}>${output}: ${reply.status} ${reply.text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(refused).toEqual([]);
    const listed = new Set(pairs.map((pair) => pair.join('>')));
    expect(listed.has('png>zzzz')).toBe(false);
    expectError(await client.request('POST', JOBS, { json: { sandbox: true, tasks: standardTasks('png', 'zzzz') } }), 422, 'png to zzzz');
  });
});

describe('POST /v1/process/jobs: the validation rules', () => {
  test.each([
    ['rule 1: an unknown operation', { bad: { operation: 'import/ftp' } }, ['rule 1', 'task bad']],
    ['rule 1: a missing operation', { bad: { input: 'x' } }, ['rule 1', 'task bad']],
    ['rule 2: an import no convert takes', { ...standardTasks(), lonely: { operation: 'import/upload', filename: 'b.png' } }, ['rule 2', 'lonely']],
    ['rule 3: an export wired to an import', { ...standardTasks(), out: { operation: 'export/url', input: ['in'] } }, ['rule 3', 'task out', 'import task in']],
    [
      'rule 4: a cycle',
      {
        in: { operation: 'import/upload', filename: 'a.png' },
        first: { operation: 'convert', input: 'in', output_format: 'jpg' },
        a: { operation: 'convert', input: 'b', output_format: 'png' },
        b: { operation: 'convert', input: 'a', output_format: 'jpg' },
      },
      ['rule 4', 'cycle'],
    ],
    [
      'rule 4: a task that reads itself',
      { in: { operation: 'import/upload', filename: 'a.png' }, c: { operation: 'convert', input: 'c', output_format: 'jpg' } },
      ['rule 4', 'task c'],
    ],
    ['rule 5: a convert fed by an export', { ...standardTasks(), again: { operation: 'convert', input: 'out', output_format: 'png' } }, ['rule 5', 'task again']],
    [
      'rule 5: a convert with two inputs',
      { in: { operation: 'import/upload', filename: 'a.png' }, c: { operation: 'convert', input: ['in', 'in'], output_format: 'jpg' } },
      ['rule 5', 'task c'],
    ],
    [
      'rule 5: an input naming no task',
      { in: { operation: 'import/upload', filename: 'a.png' }, c: { operation: 'convert', input: 'ghost', output_format: 'jpg' } },
      ['rule 5', 'ghost'],
    ],
    ['rule 5: an export of an export', { ...standardTasks(), out2: { operation: 'export/url', input: ['out'] } }, ['rule 5', 'task out2']],
  ])('%s: 422 naming the rule and the task', async (_name, tasks, fragments) => {
    const reply = await env().client.request('POST', JOBS, { json: { tasks } });
    expectError(reply, 422, ...fragments);
  });

  test('rule 6: more converts than the plan allows: 422 giving the allowance and the number requested', async () => {
    const tasks: Record<string, unknown> = { in: { operation: 'import/upload', filename: 'a.png' } };
    const requested = 101;
    for (let index = 0; index < requested; index++) tasks[`c${index}`] = { operation: 'convert', input: 'in', output_format: 'jpg' };
    const message = expectError(await env().client.request('POST', JOBS, { json: { tasks } }), 422, 'rule 6', `${requested} convert tasks`);
    const allowance = Number(/allows (\d+)/.exec(message)?.[1]);
    expect(allowance).toBeGreaterThan(0);
    expect(allowance).toBeLessThan(requested);
    // At the allowance itself the job is accepted.
    const accepted: Record<string, unknown> = { in: tasks['in'] };
    for (let index = 0; index < allowance; index++) accepted[`c${index}`] = tasks[`c${index}`];
    const job = expectJob(await env().client.request('POST', JOBS, { json: { tasks: accepted } }), 201);
    expect(job.tasks.filter((task) => task.operation === 'convert')).toHaveLength(allowance);
  });

  test('input_format that no name tells: accepted, to be recognised from the bytes', async () => {
    const tasks = { in: { operation: 'import/upload' }, c: { operation: 'convert', input: 'in', output_format: 'jpg' } };
    const job = expectJob(await env().client.request('POST', JOBS, { json: { tasks } }), 201);
    expect(taskOf(job, 'c').status).toBe('waiting_input');
  });

  test('an output format that is not a format name: 422 saying so', async () => {
    const tasks = { in: { operation: 'import/upload', filename: 'a.png' }, c: { operation: 'convert', input: 'in', output_format: 'j.p.g' } };
    expectError(await env().client.request('POST', JOBS, { json: { tasks } }), 422, 'task c', 'output_format');
  });

  test('input_format inferred from a URL path', async () => {
    const tasks = { in: { operation: 'import/url', url: 'https://example.com/files/photo.PNG?size=large' }, c: { operation: 'convert', input: 'in', output_format: 'jpg' } };
    const job = expectJob(await env().client.request('POST', JOBS, { json: { tasks } }), 201);
    expect(taskOf(job, 'in').status).toBe('waiting');
    expect(taskOf(job, 'c').status).toBe('waiting_input');
  });

  test('an output_format the catalogue does not pair with the input: 422 naming the pair', async () => {
    expectError(await env().client.request('POST', JOBS, { json: { tasks: standardTasks('png', 'zzzz') } }), 422, 'task convert', 'png to zzzz');
  });

  test('a body that is not JSON: 400; JSON that is not an object: 422', async () => {
    const { client } = env();
    expectError(await client.request('POST', JOBS, { body: '{"tasks": ', headers: { 'Content-Type': 'application/json' } }), 400);
    expectError(await client.request('POST', JOBS, { body: 'tasks=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 400);
    expectError(await client.request('POST', JOBS, { json: [1, 2] }), 422);
  });

  test('tag: echoed up to 255 characters, empty when absent, 422 past 255', async () => {
    const { client } = env();
    const tag = 't'.repeat(255);
    expect(expectJob(await client.request('POST', JOBS, { json: { tag, tasks: standardTasks() } }), 201).tag).toBe(tag);
    expect(expectJob(await client.request('POST', JOBS, { json: { tasks: standardTasks() } }), 201).tag).toBe('');
    expectError(await client.request('POST', JOBS, { json: { tag: `${tag}x`, tasks: standardTasks() } }), 422, 'tag');
  });

  test('unknown top-level and task fields are ignored; webhook_url is accepted', async () => {
    const tasks = { ...standardTasks(), convert: { ...standardTasks().convert, colour: 'blue' } };
    const job = expectJob(await env().client.request('POST', JOBS, { json: { tasks, flavour: 'extra', webhook_url: 'https://example.com/hook' } }), 201);
    expect(jobShapeProblems(job)).toEqual([]);
    expect(job.status).toBe('waiting_upload');
  });

  test('a new job: 201, waiting_upload, an upload form on each import/upload, converts and exports waiting_input', async () => {
    const job = expectJob(await env().client.request('POST', JOBS, { json: { tasks: standardTasks() } }), 201);
    expect(jobShapeProblems(job)).toEqual([]);
    expect(job.tasks.map((task) => [task.name, task.operation, task.status, task.dependsOn])).toEqual([
      ['in', 'import/upload', 'waiting_upload', []],
      ['convert', 'convert', 'waiting_input', ['in']],
      ['out', 'export/url', 'waiting_input', ['convert']],
    ]);
    expect(taskOf(job, 'in').result?.form).toMatchObject({ method: 'PUT', parameters: {}, headers: { 'Content-Type': expect.any(String) } });
    expect(await env().client.getJob(job.id)).toEqual(job);
  });

  test('credentials given on a task never come back', async () => {
    const { client } = env();
    const secrets = ['AKIA-E2E-ACCESS', 'e2e-secret-access-key', 'e2e-session-token', 'e2e-sftp-password'];
    const tasks = {
      ...standardTasks(),
      s3: { operation: 'export/s3', input: ['convert'], bucket: 'b', region: 'eu-west-1', access_key_id: secrets[0], secret_access_key: secrets[1], session_token: secrets[2] },
      sftp: { operation: 'export/sftp', input: ['convert'], host: 'sftp.example.com', username: 'u', password: secrets[3] },
    };
    const created = await client.request('POST', JOBS, { json: { tasks } });
    expect(created.status).toBe(201);
    const fetched = await client.request('GET', `${JOBS}/${(created.json as Job).id}`);
    for (const secret of secrets) {
      expect(created.text).not.toContain(secret);
      expect(fetched.text).not.toContain(secret);
    }
  });

  test('job creation needs a key (401), except in sandbox', async () => {
    expectError(await env().client.request('POST', JOBS, { auth: false, json: { tasks: standardTasks() } }), 401);
  });
});

describe('sandbox', () => {
  test('no key: 200 with a simulated finished job, placeholder export, a note; nothing stored', async () => {
    const { client } = env();
    const reply = await client.request('POST', JOBS, { auth: false, json: { sandbox: true, tag: 'try', tasks: standardTasks('png', 'jpg') } });
    const job = expectJob(reply, 200);
    expect(job.id).toMatch(/^sandbox-[0-9a-f]{32}$/);
    expect(job).toMatchObject({ status: 'finished', sandbox: true, tag: 'try', note: expect.stringContaining('quota') });
    expect(taskOf(job, 'out').result).toEqual({ url: `${client.baseUrl}/v1/download/sandbox`, filename: 'out.jpg' });
    // Nothing was stored: the id is not a job, and the placeholder is not a file.
    expectError(await client.request('GET', `${JOBS}/${job.id}`), 404);
    expectError(await client.request('GET', '/v1/download/sandbox', { auth: false }), 404);
  });

  test('an import/base64 job is validated without its file being stored: 200', async () => {
    const { client } = env();
    const png = (await gradientPng(8, 8)).bytes.toString('base64');
    const tasks = {
      in: { operation: 'import/base64', file: `data:image/png;base64,${png}`, filename: 'in.png' },
      'to-jpg': { operation: 'convert', input: 'in', output_format: 'jpg' },
    };
    const job = expectJob(await client.request('POST', JOBS, { auth: false, json: { sandbox: true, tasks } }), 200);
    expect(job).toMatchObject({ status: 'finished', sandbox: true });
    expect(taskOf(job, 'to-jpg').status).toBe('finished');
  });

  test('a key that is sent but wrong: 401, as on every call; a right one: 200, counted against the key', async () => {
    const { client } = env();
    const json = { sandbox: true, tasks: standardTasks('png', 'jpg') };
    expectError(await client.request('POST', JOBS, { auth: false, headers: { Authorization: 'Bearer tm_000000000000_wrong' }, json }), 401);
    const keyed = await client.request('POST', JOBS, { json });
    expectJob(keyed, 200);
    expect(keyed.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    // Without a key the call is counted per client address (60 a minute).
    const keyless = await client.request('POST', JOBS, { auth: false, json });
    expectJob(keyless, 200);
    expect(keyless.headers.get('x-ratelimit-limit')).toBe('60');
  });

  test("a convert's input as an array of one name is one input: 200, the same job as with a string", async () => {
    const { client } = env();
    const tasks = { ...standardTasks(), convert: { operation: 'convert', input: ['in'], output_format: 'jpg' } };
    const job = expectJob(await client.request('POST', JOBS, { auth: false, json: { sandbox: true, tasks } }), 200);
    expect(taskOf(job, 'convert').status).toBe('finished');
  });

  test.each([
    [
      'a convert naming two inputs in an array',
      { ...standardTasks(), other: { operation: 'import/upload', filename: 'b.png' }, convert: { operation: 'convert', input: ['in', 'other'], output_format: 'jpg' } },
      'must name exactly one input task',
    ],
    ['rule 1', { bad: { operation: 'import/ftp' } }, 'rule 1'],
    ['rule 3', { ...standardTasks(), out: { operation: 'export/url', input: ['in'] } }, 'rule 3'],
    ['an unconverted pair', standardTasks('png', 'zzzz'), 'png to zzzz'],
  ])('validates exactly like a real job: %s gives 422', async (_name, tasks, fragment) => {
    expectError(await env().client.request('POST', JOBS, { auth: false, json: { sandbox: true, tasks } }), 422, fragment);
  });
});

describe('GET /v1/process/jobs/{jobId} and complete-upload', () => {
  test('an unknown or malformed id: 404; no key: 401', async () => {
    const { client } = env();
    expectError(await client.request('GET', `${JOBS}/${hex32()}`), 404);
    expectError(await client.request('GET', `${JOBS}/not-a-job`), 404);
    expectError(await client.request('POST', `${JOBS}/${hex32()}/complete-upload`), 404);
    expectError(await client.request('GET', `${JOBS}/${hex32()}`, { auth: false }), 401);
  });

  test('complete-upload before the bytes of every upload task: 409 naming the waiting tasks, job unchanged', async () => {
    const { client } = env();
    const tasks = {
      a: { operation: 'import/upload', filename: 'a.png' },
      b: { operation: 'import/upload', filename: 'b.png' },
      ca: { operation: 'convert', input: 'a', output_format: 'jpg' },
      cb: { operation: 'convert', input: 'b', output_format: 'jpg' },
    };
    const job = expectJob(await client.request('POST', JOBS, { json: { tasks } }), 201);
    const sample = await gradientPng(40, 30);
    expect((await client.upload(taskOf(job, 'a').result!.form!, sample.bytes)).status).toBe(200);
    expectError(await client.completeUploadReply(job.id), 409, 'b');
    const after = await client.getJob(job.id);
    expect(after.status).toBe('waiting_upload');
    expect(after.startedAt).toBeNull();
    expect(after.tasks.map((task) => task.status)).toEqual(job.tasks.map((task) => task.status));
  });
});

describe('errors', () => {
  test('an unknown route: 404 in the Error shape, without echoing the query', async () => {
    const message = expectError(await env().client.request('GET', '/v1/nothing-here?signature=secret'), 404);
    expect(message).not.toContain('secret');
  });

  test.each([
    ['DELETE', `${JOBS}/${'a'.repeat(32)}`, 'GET'],
    ['GET', JOBS, 'POST'],
    ['PUT', '/v1/formats', 'GET'],
    ['GET', '/v1/imports', 'POST'],
  ])('a wrong method: %s %s is 405 with Allow', async (method, path, allowed) => {
    const reply = await env().client.request(method, path);
    expectError(reply, 405);
    expect(reply.headers.get('allow')).toContain(allowed);
  });

  test('GET /v1/download/{token}: an unknown or forged token is 404', async () => {
    expectError(await env().client.request('GET', '/v1/download/not-a-token', { auth: false }), 404);
    expectError(await env().client.request('GET', `/v1/download/${'A'.repeat(80)}`, { auth: false }), 404);
  });
});

describe('imports', () => {
  const createImport = async () => {
    const reply = await env().client.request('POST', '/v1/imports');
    expect(reply.status).toBe(200);
    return reply.json as { id: string; upload: { url: string; method: string; headers: Record<string, string>; proxy_url: string; token: string } };
  };
  const octets = { 'Content-Type': 'application/octet-stream' };

  test('POST /v1/imports: an id and an upload object with a direct signed URL and a proxy route with a one-use token', async () => {
    const created = await createImport();
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.upload).toMatchObject({ method: 'PUT', proxy_url: `${env().client.baseUrl}/v1/imports/${created.id}/content`, token: expect.any(String) });
    expectError(await env().client.request('POST', '/v1/imports', { auth: false }), 401);
  });

  test('the proxy route takes the token once (200), then refuses it (401); a wrong token is 401', async () => {
    const { client } = env();
    const created = await createImport();
    const bytes = (await gradientPng(50, 40)).bytes;
    const path = `/v1/imports/${created.id}/content`;
    expectError(await client.request('PUT', `${path}?token=wrong`, { auth: false, body: bytes, headers: octets }), 401);
    const first = await client.request('PUT', `${path}?token=${created.upload.token}`, { auth: false, body: bytes, headers: octets });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ status: 'success', message: expect.stringContaining(String(bytes.length)) });
    expectError(await client.request('PUT', `${path}?token=${created.upload.token}`, { auth: false, body: bytes, headers: octets }), 401, 'used');
  });

  test('the proxy route takes the API key instead, by POST too; an unknown import is 404', async () => {
    const { client } = env();
    const created = await createImport();
    const reply = await client.request('POST', `/v1/imports/${created.id}/content`, { body: Buffer.from('hello'), headers: octets });
    expect(reply.status).toBe(200);
    expectError(await client.request('PUT', `/v1/imports/${hex32()}/content`, { body: Buffer.from('x'), headers: octets }), 404);
    expectError(await client.request('PUT', `/v1/imports/${created.id}/content`, { auth: false, body: Buffer.from('x'), headers: octets }), 401);
  });

  test('a body over the import ceiling: 413, and the import holds no file', async () => {
    const { client } = env();
    const created = await createImport();
    const tooBig = Buffer.alloc(IMPORT_CEILING + 1, 7);
    expectError(await client.request('PUT', `/v1/imports/${created.id}/content`, { body: tooBig, headers: octets }), 413, String(IMPORT_CEILING));
    // Nothing half-stored: a job built on it cannot start.
    const job = expectJob(await client.request('POST', JOBS, { json: { import_id: created.id, input_format: 'png', output_format: 'jpg' } }), 201);
    expectError(await client.completeUploadReply(job.id), 409);
  });

  test('import_id: an unknown import is 422; import_id with tasks is 422', async () => {
    const { client } = env();
    expectError(await client.request('POST', JOBS, { json: { import_id: hex32(), output_format: 'jpg' } }), 422, 'import_id');
    const created = await createImport();
    expectError(await client.request('POST', JOBS, { json: { import_id: created.id, output_format: 'jpg', tasks: standardTasks() } }), 422, 'import_id');
  });
});

describe('a catalogue that does not answer', () => {
  test('gives 503 on the catalogue routes', async () => {
    const { platform, client } = env();
    await platform.stopService('catalogue');
    try {
      expectError(await client.request('GET', '/v1/formats'), 503);
      expectError(await client.request('GET', '/v1/options?input_format=png&output_format=jpg'), 503);
    } finally {
      await platform.startService('catalogue');
    }
  });
});
