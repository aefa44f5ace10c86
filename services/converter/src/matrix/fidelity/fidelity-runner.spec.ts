import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConverterFamily } from '../../families/family';
import { numberOption } from '../../families/option-builders';
import type { FamilyProof } from '../family-proof';
import { summarize } from '../matrix-report';
import { runFamilyMatrix } from '../matrix-runner';
import { renderHtml } from './html-report';
import { runOptionChecks } from './option-checks';

/** A family that upper-cases text, repeats it `times` times, and (for `lossy`) drops the last word. */
function textFamily(): ConverterFamily {
  const times = numberOption({ name: 'times', label: 'Times', description: 'Repeat the text.', group: 'text', min: 1, max: 5 });
  const width = numberOption({ name: 'width', label: 'Width', description: 'Does nothing.', group: 'text', min: 1, max: 5 });
  return {
    name: 'text',
    engineVersion: 'upper-case',
    pairs: () => [
      { inputFormat: 'txt', outputFormat: 'up', options: [times, width] },
      { inputFormat: 'txt', outputFormat: 'lossy', options: [], note: 'the last word is dropped' },
      { inputFormat: 'txt', outputFormat: 'broken', options: [] },
    ],
    async convert(request) {
      const text = (await readFile(request.inputPath, 'utf8')).toUpperCase();
      const kept = request.outputFormat === 'up' ? text : text.split(' ').slice(0, -1).join(' ');
      await writeFile(request.outputPath, kept.repeat(Number(request.options['times'] ?? 1)));
    },
  };
}

const proof: FamilyProof = {
  family: 'text',
  async generateSample(format, dir) {
    const path = join(dir, `sample.${format}`);
    await writeFile(path, 'alpha bravo charlie');
    return path;
  },
  async verifyOutput() {},
  async checkContent(pair, source, output) {
    const expected = (await readFile(source, 'utf8')).toUpperCase();
    const found = await readFile(output, 'utf8');
    const allowed = pair.note ? expected.split(' ').slice(0, -1).join(' ') : expected;
    return [{ check: 'words', passed: found.includes(allowed), detail: `found "${found}"` }];
  },
  optionChecks: [
    {
      option: 'times',
      promise: 'the text is repeated',
      runs: [{ times: 1 }, { times: 2 }],
      async verify(run) {
        const [one, two] = [await readFile(run.first, 'utf8'), await readFile(run.second, 'utf8')];
        return [{ check: 'repeated', passed: two.length === 2 * one.length, detail: `${one.length} then ${two.length} characters` }];
      },
    },
  ],
};

describe('fidelity runs', () => {
  it('fails a pair whose content check fails, and passes a declared loss', async () => {
    const family = textFamily();
    // The broken pair silently drops a word: its check fails; the lossy pair declares it and passes.
    family.convert = async (request) => {
      const text = (await readFile(request.inputPath, 'utf8')).toUpperCase();
      const kept = request.outputFormat === 'up' ? text : text.split(' ').slice(0, -1).join(' ');
      await writeFile(request.outputPath, kept);
    };
    const report = await runFamilyMatrix({ family, proof, fidelity: true, workDir: join(tmpdir(), 'fidelity-runner-spec') });
    const outcome = Object.fromEntries(report.results.map((result) => [result.outputFormat, [result.passed, result.stage ?? 'ok']]));
    expect(outcome).toEqual({ up: [true, 'ok'], lossy: [true, 'ok'], broken: [false, 'content'] });
    expect(report.results.find((result) => result.outputFormat === 'lossy')?.note).toBe('the last word is dropped');
    const html = renderHtml(summarize([report]));
    expect(html).toContain('class="fail" title="txt → broken: failed at content: words: found &quot;ALPHA BRAVO&quot;"');
    expect(html).toContain('class="note"');
  });

  it('runs each option check twice per output, and fails an option nobody checks', async () => {
    const results = await runOptionChecks({ family: textFamily(), proof, workDir: join(tmpdir(), 'fidelity-runner-spec') });
    expect(results.map(({ option, passed, error }) => ({ option, passed, error }))).toEqual([
      { option: 'width', passed: false, error: 'no effect check for the width option' },
      { option: 'times', passed: true, error: undefined },
    ]);
  });
});
