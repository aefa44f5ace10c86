import { OPERATIONS } from '@transmute/contracts';
import { Job, JobCreateBody } from './jobs';
import { openApiDocument } from './openapi';
import { Task } from './tasks';

describe('openApiDocument', () => {
  const document = openApiDocument();

  it('is OpenAPI 3.1 at version 1.0.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
  });

  it('documents every error response with the Error schema', () => {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(item ?? {})) {
        const responses = (operation as { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }).responses;
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) < 400) continue;
          expect([path, method, status, response.content?.['application/json']?.schema]).toEqual([path, method, status, { $ref: '#/components/schemas/Error' }]);
        }
      }
    }
  });

  it('links each reply to the calls it feeds, by operations and parameters that exist', () => {
    const operations = new Map<string, string[]>();
    for (const item of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(item ?? {}) as Array<{ operationId?: string; parameters?: Array<{ name: string }> }>) {
        if (operation.operationId)
          operations.set(
            operation.operationId,
            (operation.parameters ?? []).map((parameter) => parameter.name),
          );
      }
    }
    const linked: string[] = [];
    for (const item of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(item ?? {}) as Array<{
        operationId: string;
        responses: Record<string, { links?: Record<string, { operationId: string; parameters?: Record<string, string> }> }>;
      }>) {
        for (const response of Object.values(operation.responses)) {
          for (const link of Object.values(response.links ?? {})) {
            expect(operations.get(link.operationId)).toEqual(expect.arrayContaining(Object.keys(link.parameters ?? {})));
            linked.push(`${operation.operationId}->${link.operationId}`);
          }
        }
      }
    }
    expect(linked.sort()).toEqual(
      [
        'completeUpload->getJob',
        'createImport->createJob',
        'createImport->postImportContent',
        'createImport->putImportContent',
        'createJob->completeUpload',
        'createJob->getJob',
        'createJob->listWebhookDeliveries',
        'getJob->completeUpload',
      ].sort(),
    );
  });

  it('has one task schema per operation of the spec', () => {
    const task = document.components?.schemas?.['Task'] as { oneOf: unknown[] };
    expect(task.oneOf).toHaveLength(OPERATIONS.length);
    // Each operation is known to the union: whatever is missing, it is never the operation.
    for (const operation of OPERATIONS) {
      expect([operation, Task.safeParse({ operation }).error?.issues.some((issue) => issue.path.join('.') === 'operation') ?? false]).toEqual([operation, false]);
    }
    expect(Task.safeParse({ operation: 'import/ftp' }).error?.issues[0]?.path).toEqual(['operation']);
  });
});

describe('the schemas validate what the document says', () => {
  it.each([
    ['the standard flow', { tasks: { a: { operation: 'import/upload', filename: 'a.png' }, c: { operation: 'convert', input: 'a', output_format: 'jpg' } } }, true],
    ['null as absent', { tag: null, tasks: { a: { operation: 'import/upload', filename: null } } }, true],
    ['unknown fields', { nope: 1, tasks: { a: { operation: 'import/upload', nope: 2 } } }, true],
    ['a tag of 256', { tag: 'x'.repeat(256), tasks: {} }, false],
    ['a malformed output_format', { tasks: { c: { operation: 'convert', input: 'a', output_format: 'a.b' } } }, false],
    ['an ftp import/url', { tasks: { a: { operation: 'import/url', url: 'ftp://h/a.png' } } }, false],
  ])('%s', (_name, body, valid) => {
    expect(JobCreateBody.safeParse(body).success).toBe(valid);
  });

  it('a job response keeps to Job, and an extra field breaks it', () => {
    const at = '2025-01-01T00:00:00.000Z';
    const job = {
      id: 'a'.repeat(32),
      tag: '',
      status: 'waiting_upload',
      createdAt: at,
      updatedAt: at,
      startedAt: null,
      endedAt: null,
      tasks: [],
      result: null,
      error: '',
      links: { self: `/v1/process/jobs/${'a'.repeat(32)}` },
    };
    expect(Job.safeParse(job).success).toBe(true);
    expect(Job.safeParse({ ...job, status: 'sleeping' }).success).toBe(false);
  });
});
