import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import type { ConverterFamily } from '../families/family';
import type { FamilyProof } from './family-proof';
import { renderMarkdown, summarize, writeReport } from './matrix-report';
import { runFamilyMatrix } from './matrix-runner';

/** A family that upper-cases text: exercises the runner, not an engine. */
function textFamily(): ConverterFamily & { started: boolean; stopped: boolean } {
  return {
    name: 'text',
    engineVersion: 'upper-case',
    started: false,
    stopped: false,
    async start() {
      this.started = true;
    },
    async stop() {
      this.stopped = true;
    },
    pairs: () => [
      { inputFormat: 'txt', outputFormat: 'up', options: [] },
      { inputFormat: 'md', outputFormat: 'up', options: [] },
      { inputFormat: 'txt', outputFormat: 'broken', options: [] },
      { inputFormat: 'bad', outputFormat: 'up', options: [] },
    ],
    async convert(request) {
      if (request.outputFormat === 'broken') throw ServiceFailure.validation('this pair never works');
      await writeFile(request.outputPath, (await readFile(request.inputPath, 'utf8')).toUpperCase());
    },
  };
}

const proof: FamilyProof = {
  family: 'text',
  async generateSample(format, dir) {
    if (format === 'bad') throw new Error('cannot make a bad sample');
    const path = join(dir, `sample.${format}`);
    await writeFile(path, `hello ${format}`);
    return path;
  },
  async verifyOutput(_format, path) {
    const text = await readFile(path, 'utf8');
    if (text !== text.toUpperCase()) throw new Error('not upper case');
  },
};

describe('runFamilyMatrix', () => {
  it('converts each listed pair, reports failures with their stage, and starts and stops the family', async () => {
    const family = textFamily();
    const report = await runFamilyMatrix({ family, proof, workDir: join(tmpdir(), 'matrix-runner-spec'), concurrency: 2 });
    expect([family.started, family.stopped]).toEqual([true, true]);
    expect(report).toMatchObject({ family: 'text', mode: 'full', listed: 4, inputFormats: 3, outputFormats: 2, run: 4, passed: 2 });
    expect(report.failures.map(({ inputFormat, outputFormat, stage }) => `${inputFormat}>${outputFormat}:${stage}`).sort()).toEqual(['bad>up:sample', 'txt>broken:convert']);
    expect(report.failures.find((failure) => failure.stage === 'convert')?.error).toBe('this pair never works');
    const markdown = renderMarkdown(summarize([report]));
    expect(markdown).toContain('| text | full | 3 | 2 | 4 | 4 | 2 | 2 |');
    expect(markdown).toContain('| txt → broken | convert | this pair never works |');
  });

  it('runs a covering subset and honours a filter', async () => {
    const report = await runFamilyMatrix({
      family: textFamily(),
      proof,
      subset: true,
      workDir: join(tmpdir(), 'matrix-runner-spec'),
      filter: (pair) => pair.inputFormat !== 'bad',
    });
    expect(report.mode).toBe('subset');
    const run = report.results.map((result) => `${result.inputFormat}>${result.outputFormat}`);
    expect(new Set(report.results.map((result) => result.inputFormat))).toEqual(new Set(['txt', 'md']));
    expect(new Set(report.results.map((result) => result.outputFormat))).toEqual(new Set(['up', 'broken']));
    expect(run).not.toContain('bad>up');
    expect(report.listed).toBe(4);
  });
});

describe('writeReport', () => {
  it('creates the output directory and its parents when they do not exist', async () => {
    const root = await mkdtemp(join(tmpdir(), 'matrix-report-spec-'));
    try {
      const report = await runFamilyMatrix({ family: textFamily(), proof, workDir: join(root, 'work'), concurrency: 1 });
      const dir = join(root, 'not', 'yet', 'there');
      const written = await writeReport(summarize([report]), dir);
      expect(written).toEqual([join(dir, 'matrix-report.json'), join(dir, 'matrix-report.md'), join(dir, 'matrix-report.html')]);
      expect(JSON.parse(await readFile(written[0]!, 'utf8')).totals).toMatchObject({ listed: 4, run: 4, passed: 2, failed: 2 });
      expect(await readFile(written[2]!, 'utf8')).toContain('<table class="grid">');
      expect(await readFile(written[1]!, 'utf8')).toContain('| text | full |');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
