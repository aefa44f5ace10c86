import { mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { COMIC_TEXT_OUTPUTS, DOCUMENT_OUTPUTS, EBOOK_ONLY_INPUTS, EBOOK_OUTPUTS, SHARED_INPUTS } from './ebook-formats';
import { COMIC_INPUTS, ebookArguments, ebookOptions, ebookSettings } from './ebook-options';

const TIMEOUT_MS = 10 * 60_000;
/** calibre prints `34% Running transforms on e-book...` as it goes. */
const PROGRESS_LINE = /^(\d{1,3})% /;
const canonical = (format: string) => (format === 'azw' || format === 'prc' ? 'mobi' : format);

/** E-books through calibre's `ebook-convert`, one process per conversion. */
export class EbookFamily implements ConverterFamily {
  readonly name = 'ebook';
  engineVersion = 'calibre ebook-convert';

  pairs(): PairDeclaration[] {
    const pairs: PairDeclaration[] = [];
    const add = (inputFormat: string, outputs: readonly string[]) => {
      for (const outputFormat of outputs) {
        if (COMIC_INPUTS.has(inputFormat) && COMIC_TEXT_OUTPUTS.has(outputFormat)) continue;
        if (canonical(inputFormat) !== canonical(outputFormat)) pairs.push({ inputFormat, outputFormat, options: ebookOptions(inputFormat, outputFormat) });
      }
    };
    for (const input of EBOOK_ONLY_INPUTS) add(input, [...EBOOK_OUTPUTS, ...DOCUMENT_OUTPUTS]);
    for (const input of SHARED_INPUTS) add(input, EBOOK_OUTPUTS);
    return pairs;
  }

  async start(): Promise<void> {
    const output = await runEngine({ command: 'ebook-convert', args: ['--version'], timeoutMs: 30_000, signal: AbortSignal.timeout(30_000) }).catch((error: unknown) => {
      throw ServiceFailure.unavailable(`the ebook family needs calibre's ebook-convert: ${(error as Error).message}`, error);
    });
    this.engineVersion = output.stdout.split('\n')[0]?.trim() || this.engineVersion;
  }

  async convert(request: ConversionRequest): Promise<void> {
    const settings = ebookSettings(request.options);
    // ebook-convert picks reader and writer by extension and writes a scratch
    // directory next to its output; both live in a private folder.
    const scratch = await mkdtemp(join(dirname(request.outputPath), 'calibre-'));
    try {
      const output = join(scratch, `book.${request.outputFormat}`);
      await runEngine({
        command: 'ebook-convert',
        args: [request.inputPath, output, ...ebookArguments(settings, request.inputFormat, request.outputFormat)],
        cwd: scratch,
        env: {
          // Its PDF output renders through QtWebEngine, whose sandbox refuses to run as root.
          QTWEBENGINE_DISABLE_SANDBOX: '1',
          QTWEBENGINE_CHROMIUM_FLAGS: '--disable-gpu',
          CALIBRE_CONFIG_DIRECTORY: join(scratch, 'config'),
          HOME: scratch,
        },
        timeoutMs: TIMEOUT_MS,
        // Chromium (PDF output) reserves far more address space than it uses.
        memoryLimitMb: request.outputFormat === 'pdf' || request.inputFormat === 'pdf' ? 0 : undefined,
        signal: request.signal,
        onStdoutLine: (line) => {
          const match = PROGRESS_LINE.exec(line);
          if (match) request.reportProgress(Number(match[1]));
        },
      });
      await rename(output, request.outputPath).catch(() => {
        throw ServiceFailure.validation(`calibre wrote no ${request.outputFormat} file: the ${request.inputFormat} input may be damaged`);
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}
