import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { archiveContentCheck } from './archive.fidelity';

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
});
