import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { archiveContentCheck, readArchive } from './archive.fidelity';
import { writeArchiveSample } from './archive.proof';

/** The archive content check must fail an output missing a member, holding an extra one, or with a changed byte. */
describe('archive content check', () => {
  let dir: string;
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  const signal = () => AbortSignal.timeout(60_000);
  const pack = async (name: string, files: Record<string, string>) => {
    const tree = join(dir, `${name}-tree`);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(tree, path, '..'), { recursive: true });
      await writeFile(join(tree, path), content);
    }
    const archive = join(dir, name);
    await runEngine({ command: 'bsdtar', args: ['-c', '-f', archive, '--format', 'ustar', '-C', tree, ...Object.keys(files)], timeoutMs: 60_000, signal: signal() });
    return archive;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-fidelity-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes the same files and fails a missing member, an extra one and a changed byte', async () => {
    const files = { 'readme.txt': 'hello\n', 'docs/notes.md': '# notes\n' };
    const source = await pack('source.tar', files);
    const check = archiveContentCheck();
    const run = (output: string) => check({ inputFormat: 'tar', outputFormat: 'tar' }, source, output, signal());
    expect(failed(await run(await pack('same.tar', files)))).toEqual([]);
    expect(failed(await run(await pack('missing.tar', { 'readme.txt': 'hello\n' })))).toEqual(['file list', 'bytes']);
    expect(failed(await run(await pack('extra.tar', { ...files, 'more.txt': 'x' })))).toEqual(['file list']);
    expect(failed(await run(await pack('changed.tar', { ...files, 'readme.txt': 'hellO\n' })))).toEqual(['bytes']);
  });

  /** Who reads what 7-Zip does not: not lzip or brotli (the family's engines), lzop only because nothing else reads it. */
  const readers: Record<string, RegExp> = { lz: /bsdcat/, lzo: /^lzop/, br: /Python's brotli/, tzo: /^lzop.*7-Zip for the tar/, rpm: /^7-Zip.*cpio/ };
  it.each(Object.keys(readers))('reads a %s sample by its reader, and fails it cut short', async (format) => {
    const sampleDir = await mkdtemp(join(dir, `${format}-`));
    const sample = await writeArchiveSample(format, sampleDir, signal());
    const tree = await readArchive(sample, format, sampleDir, signal());
    expect(tree.reader).toMatch(readers[format]!);
    expect(tree.files.size).toBe(format === 'lz' || format === 'lzo' || format === 'br' ? 1 : 3);
    const bytes = await readFile(sample);
    const cut = join(sampleDir, `cut.${format}`);
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const findings = await archiveContentCheck()({ inputFormat: format, outputFormat: format }, sample, cut, signal());
    expect(failed(findings).length).toBeGreaterThan(0);
  });
});
