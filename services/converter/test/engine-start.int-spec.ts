import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConverterProcess } from './converter-process';

/**
 * A LibreOffice whose first starts fail (as on a fresh machine, where the
 * first `make up` once died with "soffice did not come up (exit 134)") must
 * not take the converter down: the built document converter comes up, says
 * on `/readyz` and `/metrics` that LibreOffice is not up and why, converts
 * the pairs that need no LibreOffice (pandoc) meanwhile, holds the ones that
 * do, and serves them once its retry brings LibreOffice up.
 */
describe('converter whose engine fails its first start', () => {
  let dir: string;
  let release: string;
  let converter: ConverterProcess;
  /** The pandoc-made docx, which the LibreOffice conversion then reads. */
  let docxKey = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-start-'));
    release = join(dir, 'release');
    const soffice = execFileSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).trim();
    // Stands in for soffice: aborts like a failed first start until `release` exists, then runs the real one.
    const wrapper = join(dir, 'soffice');
    await writeFile(
      wrapper,
      `#!${process.execPath}
const { existsSync } = require('node:fs');
const { spawn } = require('node:child_process');
if (!existsSync(${JSON.stringify(release)})) {
  process.stderr.write('simulated fatal error of a first start\\n');
  process.exit(134);
}
const office = spawn(${JSON.stringify(soffice)}, process.argv.slice(2), { stdio: 'inherit' });
office.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
`,
    );
    await chmod(wrapper, 0o755);
    converter = new ConverterProcess('document', {
      TRANSMUTE_OFFICE_BINARY: wrapper,
      TRANSMUTE_OFFICE_POOL_SIZE: '1',
      // A task that needs LibreOffice comes back quickly while it is down, and often enough to outlast it.
      TRANSMUTE_RETRY_DELAYS_MS: '1000',
      TRANSMUTE_MAX_DELIVER: '60',
      // Each delivery reports its start, however quickly it is sent back: the spec counts them.
      TRANSMUTE_STARTED_REPORT_DELAY_MS: '0',
    });
    await converter.start();
  });
  afterAll(async () => {
    await converter.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const readyz = async () => {
    const response = await fetch(`${converter.baseUrl}/readyz`).catch(() => undefined);
    return response && { status: response.status, body: (await response.json()) as { error?: Record<string, { message?: string }> } };
  };
  const metric = async (line: RegExp) => line.exec(await (await fetch(`${converter.baseUrl}/metrics`)).text())?.[1];
  const stored = async (key: string) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await converter.storage.get(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  it('comes up not ready, saying why, and converts with pandoc meanwhile', async () => {
    const down = await converter.until(async () => {
      const answer = await readyz();
      return answer?.body.error?.['engines']?.message?.includes('simulated fatal error') ? answer : undefined;
    }, 'readiness to name the failed start');
    expect(down.status).toBe(503);
    expect(down.body.error!['engines']!.message).toMatch(
      /^LibreOffice has not come up yet: \d+ start\(s\) in a row failed, the last with: LibreOffice could not start: .*exit 134/,
    );
    expect(await metric(/^transmute_family_ready\{family="document"[^}]*\} (\d+)$/m)).toBe('0');
    expect(Number(await metric(/^transmute_engine_start_failures_total\{engine="libreoffice"[^}]*\} (\d+)$/m))).toBeGreaterThanOrEqual(1);

    await converter.submit('markdown', '# Quarterly figures\n\nRevenue rose by eleven percent.\n', 'md', 'docx');
    const done = await converter.until(() => converter.ended('markdown'), 'the pandoc conversion');
    expect(done.outcome.case).toBe('succeeded');
    docxKey = done.outcome.case === 'succeeded' ? done.outcome.value.file!.key : '';
    // An independent reader: the document's XML, read out of the package by 7-Zip.
    await writeFile(join(dir, 'figures.docx'), await stored(docxKey));
    expect(execFileSync('7z', ['x', '-so', join(dir, 'figures.docx'), 'word/document.xml'], { encoding: 'utf8' })).toContain('Revenue rose by eleven percent.');
    expect(converter.exitCode).toBeNull();
  });

  it('holds a conversion that needs LibreOffice, and serves it once a retry brings LibreOffice up', async () => {
    await converter.submit('office', await stored(docxKey), 'docx', 'pdf');
    // Sent back while LibreOffice is down: retryable, never failed for it.
    await converter.until(
      () => converter.outcomes.filter((outcome) => outcome.taskName === 'office' && outcome.outcome.case === 'started').length >= 2,
      'the office task to come back',
    );
    expect(converter.ended('office')).toBeUndefined();

    await writeFile(release, '');
    await converter.until(async () => (await readyz())?.status === 200, 'readiness after the retry', 120_000);
    expect(await metric(/^transmute_family_ready\{family="document"[^}]*\} (\d+)$/m)).toBe('1');
    const done = await converter.until(() => converter.ended('office'), 'the LibreOffice conversion', 120_000);
    expect(done.outcome.case).toBe('succeeded');
    const pdf = done.outcome.case === 'succeeded' ? done.outcome.value.file! : undefined;
    await writeFile(join(dir, 'figures.pdf'), await stored(pdf!.key));
    expect(execFileSync('pdftotext', [join(dir, 'figures.pdf'), '-'], { encoding: 'utf8' })).toContain('Revenue rose by eleven percent.');
  }, 240_000);
});
