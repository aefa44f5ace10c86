import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { ebookContentCheck } from './ebook.fidelity';
import { BOOK_TITLE, CHAPTERS } from './ebook.proof';

/** The ebook content check must fail a book missing a chapter or its title. */
describe('ebook content check', () => {
  let dir: string;
  const check = ebookContentCheck();
  const signal = () => AbortSignal.timeout(60_000);
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  const epub = async (name: string, title: string, chapters: readonly (readonly string[])[]) => {
    const markdown = join(dir, `${name}.md`);
    await writeFile(markdown, `---\ntitle: ${title}\n---\n\n${chapters.map((chapter) => `# ${chapter.slice(0, 2).join(' ')}\n\n${chapter.slice(2).join(' ')}.\n`).join('\n')}`);
    const path = join(dir, `${name}.epub`);
    await runEngine({ command: 'pandoc', args: ['-t', 'epub3', '-o', path, markdown], timeoutMs: 60_000, signal: signal() });
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ebook-fidelity-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes the book, and fails one missing a chapter or its title', async () => {
    const run = async (path: string) => failed(await check({ inputFormat: 'mobi', outputFormat: 'epub' }, '', path, signal()));
    expect(await run(await epub('good', BOOK_TITLE, CHAPTERS))).toEqual([]);
    expect(await run(await epub('short', BOOK_TITLE, CHAPTERS.slice(0, 1)))).toEqual(['chapter text']);
    expect(await run(await epub('untitled', 'Something else', CHAPTERS))).toEqual(['title']);
  });
});
