import { copyFile, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { BITMAP_FONT_FORMATS, bitmapFontPairs, convertBitmapFont, isBitmapFont } from './bitmap-fonts';
import { FONT_INPUTS, FONT_OUTPUTS, fontPairNote } from './font-formats';

const TIMEOUT_MS = 2 * 60_000;
/**
 * FontForge's own scripting language, given the paths as script arguments
 * ($1, $2): no shell, no quoting of user-controlled names. `Open` fails on a
 * file that is not a font, which FontForge reports with a non-zero exit.
 * Reencoding to Unicode first: an SVG font opens with its glyphs in file
 * order, and a Type 1 or Type 3 font written from that encoding maps "A" to
 * code 2 instead of 65 (the fidelity check found every letter misplaced).
 */
const FONTFORGE_SCRIPT = 'Open($1); Reencode("UnicodeFull"); Generate($2)';
/** FontForge's own format is saved, not generated. */
const FONTFORGE_SAVE_SCRIPT = 'Open($1); Reencode("UnicodeFull"); Save($2)';

/** Fonts through FontForge, and WOFF2 through Google's reference encoder. */
export class FontFamily implements ConverterFamily {
  readonly name = 'font';
  engineVersion = 'FontForge / woff2';

  pairs(): PairDeclaration[] {
    const outlinePairs = FONT_INPUTS.flatMap((inputFormat) =>
      FONT_OUTPUTS.filter((outputFormat) => outputFormat !== inputFormat).map((outputFormat) => ({
        inputFormat,
        outputFormat,
        options: [],
        note: fontPairNote(inputFormat, outputFormat),
      })),
    );
    return [...outlinePairs, ...bitmapFontPairs()];
  }

  async start(): Promise<void> {
    const output = await runEngine({ command: 'fontforge', args: ['-version'], timeoutMs: 30_000, signal: AbortSignal.timeout(30_000) }).catch((error: unknown) => {
      throw ServiceFailure.unavailable(`the font family needs fontforge: ${(error as Error).message}`, error);
    });
    const version = /fontforge (\S+)/i.exec(output.stdout + output.stderr)?.[1];
    this.engineVersion = `FontForge ${version ?? ''} / woff2`.replace('  ', ' ');
  }

  async convert(request: ConversionRequest): Promise<void> {
    const { inputFormat, outputFormat, signal } = request;
    const scratch = await mkdtemp(join(dirname(request.outputPath), 'font-'));
    try {
      // Engines pick the format by extension: give them honest names in a private folder.
      const input = join(scratch, `input.${inputFormat}`);
      await copyFile(request.inputPath, input);
      const run = (command: string, args: string[]) => runEngine({ command, args, cwd: scratch, env: { HOME: scratch }, timeoutMs: TIMEOUT_MS, signal });
      if (isBitmapFont(inputFormat)) {
        if (!isBitmapFont(outputFormat)) throw ServiceFailure.validation(`a ${inputFormat} bitmap font converts only to ${BITMAP_FONT_FORMATS.join(', ')}`);
        await convertBitmapFont(input, inputFormat, outputFormat, request.outputPath, scratch, run);
        request.reportProgress(100);
        return;
      }
      const unwrapped = inputFormat === 'eot' ? join(scratch, 'unwrapped.ttf') : input;
      if (inputFormat === 'eot') await run('eot2ttf', [input, unwrapped]);
      if (inputFormat === 'ttf' && outputFormat === 'woff2') {
        await run('woff2_compress', [input]);
        await rename(join(scratch, 'input.woff2'), request.outputPath);
      } else if (inputFormat === 'woff2' && outputFormat === 'ttf') {
        await run('woff2_decompress', [input]);
        await rename(join(scratch, 'input.ttf'), request.outputPath);
      } else {
        const output = join(scratch, `output.${outputFormat}`);
        const script = outputFormat === 'sfd' ? FONTFORGE_SAVE_SCRIPT : FONTFORGE_SCRIPT;
        await run('fontforge', ['-quiet', '-lang=ff', '-c', script, unwrapped, output]);
        await rename(output, request.outputPath).catch(() => {
          throw ServiceFailure.validation(`FontForge wrote no ${outputFormat} file: the ${inputFormat} input may not be a font`);
        });
      }
      request.reportProgress(100);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}
