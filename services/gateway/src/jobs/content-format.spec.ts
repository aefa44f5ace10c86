import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { create } from '@bufbuild/protobuf';
import { CreateJobRequestSchema, ErrorCode, ImportRecordSchema, TaskSpecSchema } from '@transmute/contracts';
import { FsStorage } from '@transmute/storage';
import { formatOfFilename } from '@transmute/contracts';
import { resolveBase64Format, resolveImportFormat } from './content-format';

const gz = gzipSync(Buffer.from('hello'));
const text = Buffer.from('name,size\nphoto,12\n');

describe('formatOfFilename (the contracts rule the gateway reads names by)', () => {
  it.each([
    ['photo.PNG', 'png'],
    ['archive.tar.gz', 'gz'],
    ['README', ''],
    ['.hidden', ''],
    ['odd.ext!', ''],
  ])('%s -> %j', (name, format) => expect(formatOfFilename(name)).toBe(format));
});

describe('resolveImportFormat', () => {
  let root: string;
  let storage: FsStorage;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'content-format-'));
    storage = new FsStorage({ root, signingKey: 'k'.repeat(32), publicUrl: 'http://127.0.0.1:8080' });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const record = (filename = '') => create(ImportRecordSchema, { id: 'a'.repeat(32), key: 'imports/a/source', filename });
  const request = (inputFormat = '') => create(CreateJobRequestSchema, { importId: 'a'.repeat(32), outputFormat: 'jpg', inputFormat });

  it('sets the input format from the stored bytes when neither input_format nor the name tells', async () => {
    await storage.put('imports/a/source', Readable.from([gz]));
    const job = request();
    await resolveImportFormat(job, record(), storage);
    expect(job.inputFormat).toBe('gz');
  });

  it('leaves a named or declared import alone, whatever its content', async () => {
    await storage.put('imports/a/source', Readable.from([gz]));
    const named = request();
    await resolveImportFormat(named, record('scan.png'), storage);
    expect(named.inputFormat).toBe('');
    const declared = request('tar');
    await resolveImportFormat(declared, record(), storage);
    expect(declared.inputFormat).toBe('tar');
  });

  it('refuses content it cannot recognise, and an import without content, with a validation error', async () => {
    await expect(resolveImportFormat(request(), record(), storage)).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: expect.stringContaining('has no content yet'),
    });
    await storage.put('imports/a/source', Readable.from([text]));
    await expect(resolveImportFormat(request(), record(), storage)).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: expect.stringContaining('cannot be recognised from its content'),
    });
  });
});

describe('resolveBase64Format', () => {
  const job = (spec: { filename?: string; inputFormat?: string }, convertInputFormat = '') =>
    create(CreateJobRequestSchema, {
      tasks: {
        in: create(TaskSpecSchema, { operation: 'import/base64', ...spec }),
        out: create(TaskSpecSchema, { operation: 'convert', input: ['in'], outputFormat: 'zip', inputFormat: convertInputFormat }),
      },
    });

  it('sets the import task input format from the decoded bytes when nothing else tells', async () => {
    const request = job({});
    await resolveBase64Format(request, 'in', gz);
    expect(request.tasks['in']?.inputFormat).toBe('gz');
  });

  it('keeps a file name or input_format that tells', async () => {
    const named = job({ filename: 'notes.tar' });
    await resolveBase64Format(named, 'in', gz);
    expect(named.tasks['in']?.inputFormat).toBe('');
    const declared = job({ inputFormat: 'tar' });
    await resolveBase64Format(declared, 'in', gz);
    expect(declared.tasks['in']?.inputFormat).toBe('tar');
  });

  it('refuses unrecognised content a convert reads without its own input_format, and lets it through otherwise', async () => {
    await expect(resolveBase64Format(job({}), 'in', text)).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: expect.stringContaining('task in: the format of the file cannot be recognised'),
    });
    await expect(resolveBase64Format(job({}, 'csv'), 'in', text)).resolves.toBeUndefined();
  });
});
