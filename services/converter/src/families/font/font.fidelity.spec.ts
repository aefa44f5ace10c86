import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { fontContentCheck, pathBox, readAfm } from './font.fidelity';
import { fontProof } from './font.proof';

/** The font content check must fail a font that dropped glyphs or lost their outlines. */
describe('font content check', () => {
  let dir: string;
  const check = fontContentCheck();
  const proof = fontProof();
  const signal = () => AbortSignal.timeout(120_000);
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  /** The sample font through a FontForge script, written as `format`. */
  const damaged = async (name: string, script: string) => {
    const sfd = await proof.generateSample('sfd', join(dir, `${name}-sample`), signal());
    const path = join(dir, name);
    await runEngine({ command: 'fontforge', args: ['-quiet', '-lang=ff', '-c', `Open($1); ${script}Generate($2)`, sfd, path], timeoutMs: 120_000, signal: signal() });
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'font-fidelity-'));
  });
  afterAll(() => Promise.all([rm(dir, { recursive: true, force: true }), proof.dispose?.()]));

  it('passes the sample written as TrueType and as Type 1', async () => {
    for (const format of ['ttf', 'pfb']) expect(failed(await check({ inputFormat: 'sfd', outputFormat: format }, '', await damaged(`good.${format}`, ''), signal()))).toEqual([]);
  });

  it('fails a font with dropped glyphs', async () => {
    const path = await damaged('dropped.ttf', 'Select(0u0041, 0u0045); Clear(); ');
    expect(failed(await check({ inputFormat: 'sfd', outputFormat: 'ttf' }, '', path, signal()))).toEqual(['character map']);
  });

  it('fails a font whose outlines changed', async () => {
    const path = await damaged('squashed.otf', 'Select(0u0061, 0u007a); Scale(50, 100); ');
    expect(failed(await check({ inputFormat: 'sfd', outputFormat: 'otf' }, '', path, signal()))).toEqual(['outlines']);
  });

  describe('bitmap fonts, read by FreeType', () => {
    const bitmapPair = { inputFormat: 'otb', outputFormat: 'bdf' };
    /** The BDF sample, and a copy whose text `edit` changed. */
    const bdfSample = async (name: string, edit: (bdf: string) => string) => {
      const source = await proof.generateSample('bdf', join(dir, `${name}-sample`), signal());
      const path = join(dir, `${name}.bdf`);
      await writeFile(path, edit(await readFile(source, 'latin1')), 'latin1');
      return { source, path };
    };

    it('passes an unchanged copy', async () => {
      const { source, path } = await bdfSample('same', (bdf) => bdf);
      expect(failed(await check(bitmapPair, source, path, signal()))).toEqual([]);
    });

    it('fails a font with a dropped character', async () => {
      const { source, path } = await bdfSample('dropped', (bdf) => bdf.replace(/STARTCHAR E\n[\s\S]*?ENDCHAR\n/, '').replace('CHARS 53', 'CHARS 52'));
      expect(failed(await check(bitmapPair, source, path, signal()))).toEqual(['character map']);
    });

    it('fails a font whose pixels changed', async () => {
      // The first row of "a" blanked: the letter loses its top edge.
      const { source, path } = await bdfSample('blanked', (bdf) => bdf.replace(/(STARTCHAR a\n[\s\S]*?BITMAP\n)[0-9A-F]+\n/, '$100\n'));
      expect(failed(await check(bitmapPair, source, path, signal()))).toEqual(['pixels', 'design']);
    });

    it('fails an outline font given as a bitmap output', async () => {
      const { source } = await bdfSample('outline', (bdf) => bdf);
      expect(failed(await check(bitmapPair, source, await damaged('outline.ttf', ''), signal()))).toEqual(['read']);
    });
  });

  it('reads the box of an SVG path and of AFM metrics', () => {
    expect(pathBox('M200 100h220v400h-220v-400zM100 0v700h420v-700h-420z')).toEqual([100, 0, 520, 700]);
    expect(readAfm('C 65 ; WX 600 ; N A ; B 100 0 520 700 ;\nC 32 ; WX 600 ; N space ; B 0 0 0 0 ;\n').glyphs).toEqual(
      new Map([
        [65, [100, 0, 520, 700]],
        [32, null],
      ]),
    );
  });
});
