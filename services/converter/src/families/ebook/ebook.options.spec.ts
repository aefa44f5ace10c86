import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { EbookFamily } from './ebook.family';

/** Each option the ebook family declares, shown to change calibre's output. */
describe('ebook family options', () => {
  const family = new EbookFamily();
  let dir: string;
  let epub: string;
  let counter = 0;
  const signal = () => AbortSignal.timeout(120_000);

  const convert = async (outputFormat: string, options: Record<string, unknown> = {}) => {
    const outputPath = join(dir, `out-${++counter}.${outputFormat}`);
    const progress: number[] = [];
    await family.convert({
      inputPath: epub,
      outputPath,
      inputFormat: 'epub',
      outputFormat,
      options,
      signal: signal(),
      reportProgress: (percent) => progress.push(percent),
    });
    return { path: outputPath, progress };
  };
  /** Every entry of the EPUB whose name matches, concatenated (bsdtar lists and extracts zips). */
  const entries = async (path: string, pattern: RegExp) => {
    const { stdout: listing } = await runEngine({ command: 'bsdtar', args: ['-tf', path], timeoutMs: 30_000, signal: signal() });
    const names = listing.split('\n').filter((name) => name && pattern.test(name));
    const texts = await Promise.all(names.map(async (name) => (await runEngine({ command: 'bsdtar', args: ['-xOf', path, name], timeoutMs: 30_000, signal: signal() })).stdout));
    return { names: listing.split('\n'), text: texts.join('\n') };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ebook-options-'));
    const markdown = join(dir, 'book.md');
    await writeFile(markdown, '---\ntitle: Options book\nauthor: Tests\n---\n\n# One\n\nFirst chapter text.\n\n# Two\n\nSecond chapter text.\n');
    epub = join(dir, 'book.epub');
    await runEngine({ command: 'pandoc', args: ['-t', 'epub3', '-o', epub, markdown], timeoutMs: 60_000, signal: signal() });
    await family.start();
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reports calibre progress and ends at 100', async () => {
    const { progress } = await convert('epub');
    expect(progress.length).toBeGreaterThan(1);
    expect(Math.max(...progress)).toBeGreaterThanOrEqual(67);
  });

  it('output_profile changes the styles calibre writes for the device', async () => {
    const generic = await entries((await convert('epub')).path, /\.css$/);
    const kindle = await entries((await convert('epub', { output_profile: 'kindle' })).path, /\.css$/);
    expect(kindle.text).not.toEqual(generic.text);
  });

  it('base_font_size rescales the font sizes', async () => {
    const normal = await entries((await convert('epub')).path, /\.css$/);
    const large = await entries((await convert('epub', { base_font_size: 30 })).path, /\.css$/);
    expect(large.text).not.toEqual(normal.text);
  });

  it('margin sets the page margins', async () => {
    const { text } = await entries((await convert('epub', { margin: 42 })).path, /\.css$/);
    expect(text).toMatch(/margin-top:\s*42pt/);
    const { text: defaults } = await entries((await convert('epub')).path, /\.css$/);
    expect(defaults).toMatch(/margin-top:\s*5pt/);
  });

  it('default_cover=false leaves the generated cover out', async () => {
    const withCover = await entries((await convert('epub')).path, /^$/);
    const without = await entries((await convert('epub', { default_cover: false })).path, /^$/);
    expect(withCover.names.length).toBeGreaterThan(3);
    expect(withCover.names.some((name) => /cover.*\.(jpe?g|png)$/i.test(name))).toBe(true);
    expect(without.names.some((name) => /cover.*\.(jpe?g|png)$/i.test(name))).toBe(false);
  });

  it('paper_size sets the PDF page size', async () => {
    const pageSize = async (options: Record<string, unknown>) => {
      const { stdout } = await runEngine({ command: 'pdfinfo', args: [(await convert('pdf', options)).path], timeoutMs: 30_000, signal: signal() });
      return /Page size:\s+([\d.]+) x ([\d.]+)/
        .exec(stdout)!
        .slice(1, 3)
        .map((value) => Math.round(Number(value)));
    };
    expect(await pageSize({ paper_size: 'a4' })).toEqual([595, 842]);
    expect(await pageSize({ paper_size: 'letter' })).toEqual([612, 792]);
  });

  it('fails a damaged book with a message naming calibre', async () => {
    const damaged = join(dir, 'damaged.epub');
    await writeFile(damaged, 'not a zip at all');
    await expect(
      family.convert({
        inputPath: damaged,
        outputPath: join(dir, 'x.mobi'),
        inputFormat: 'epub',
        outputFormat: 'mobi',
        options: {},
        signal: signal(),
        reportProgress: () => undefined,
      }),
    ).rejects.toThrow(/ebook-convert/);
    expect((await readFile(epub)).length).toBeGreaterThan(0);
  });
});
