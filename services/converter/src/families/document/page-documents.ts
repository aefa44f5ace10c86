import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { DocumentJob } from './document-options';

/**
 * Fixed-page documents other than PDF: DjVu through DjVuLibre (`ddjvu`,
 * `djvutxt`) and XPS / OpenXPS through libgxps (`xpsto*`). What each writes,
 * by input format.
 */
const DJVU_OUTPUTS = ['pdf', 'png', 'jpg', 'tiff', 'txt'] as const;
const XPS_OUTPUTS = ['pdf', 'png', 'jpg', 'svg', 'ps'] as const;
export const PAGE_DOCUMENT_OUTPUTS: Record<string, readonly string[]> = {
  djvu: DJVU_OUTPUTS,
  djv: DJVU_OUTPUTS,
  xps: XPS_OUTPUTS,
  oxps: XPS_OUTPUTS,
};

const TIMEOUT_MS = 5 * 60_000;

export async function convertPageDocument(job: DocumentJob): Promise<void> {
  try {
    if (job.inputFormat === 'djvu' || job.inputFormat === 'djv') await convertDjvu(job);
    else await convertXps(job);
  } catch (error) {
    if (error instanceof ServiceFailure && error.retryable) throw error;
    throw ServiceFailure.validation(`the input is not a readable ${job.inputFormat} file: ${(error as Error).message}`);
  }
}

const run = (command: string, args: string[], signal: AbortSignal) => runEngine({ command, args, timeoutMs: TIMEOUT_MS, signal });

/** DjVuLibre's page list: `-page=2-5`, `-page=3-$` (to the end) ...; nothing for every page. */
function djvuPages({ pageFrom, pageTo }: DocumentJob['settings']): string | undefined {
  if (!pageFrom && !pageTo) return undefined;
  return `${pageFrom ?? 1}-${pageTo ?? '$'}`;
}

async function convertDjvu(job: DocumentJob): Promise<void> {
  const { inputPath, outputPath, outputFormat, settings, signal } = job;
  const range = djvuPages(settings);
  switch (outputFormat) {
    case 'pdf':
      await run('ddjvu', ['-format=pdf', ...(range ? [`-page=${range}`] : []), inputPath, outputPath], signal);
      return;
    case 'tiff':
      await run('ddjvu', ['-format=tiff', `-page=${settings.page}`, inputPath, outputPath], signal);
      return;
    case 'txt':
      await run('djvutxt', [...(range ? [`--page=${range}`] : []), inputPath, outputPath], signal);
      return;
    case 'png':
    case 'jpg': {
      // ddjvu writes no PNG or JPEG: the page goes through a one-page PDF that poppler renders.
      const scratch = await mkdtemp(join(dirname(outputPath), 'djvu-'));
      try {
        const page = join(scratch, 'page.pdf');
        await run('ddjvu', ['-format=pdf', `-page=${settings.page}`, inputPath, page], signal);
        const base = join(scratch, 'page');
        await run('pdftocairo', [outputFormat === 'png' ? '-png' : '-jpeg', '-singlefile', '-r', String(settings.dpi), page, base], signal);
        await rename(`${base}.${outputFormat}`, outputPath);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
      return;
    }
    default:
      throw ServiceFailure.validation(`the document family does not write ${job.inputFormat} to ${outputFormat}`);
  }
}

async function convertXps(job: DocumentJob): Promise<void> {
  const { inputPath, outputPath, outputFormat, settings, signal } = job;
  const range = [...(settings.pageFrom ? ['-f', String(settings.pageFrom)] : []), ...(settings.pageTo ? ['-l', String(settings.pageTo)] : [])];
  const onePage = ['-f', String(settings.page), '-l', String(settings.page)];
  switch (outputFormat) {
    case 'pdf':
      await run('xpstopdf', [...range, inputPath, outputPath], signal);
      return;
    case 'ps':
      await run('xpstops', [...range, inputPath, outputPath], signal);
      return;
    case 'svg':
      await run('xpstosvg', [...onePage, inputPath, outputPath], signal);
      return;
    case 'png':
    case 'jpg': {
      // xpstopng / xpstojpeg name the page after the base they are given: <base>-<page>.<ext>.
      const scratch = await mkdtemp(join(dirname(outputPath), 'xps-'));
      try {
        const base = join(scratch, 'page');
        await run(outputFormat === 'png' ? 'xpstopng' : 'xpstojpeg', [...onePage, '-r', String(settings.dpi), inputPath, base], signal);
        const [written] = (await readdir(scratch)).filter((name) => name.startsWith('page-'));
        if (!written) throw ServiceFailure.validation(`the ${job.inputFormat} file has no page ${settings.page}`);
        await rename(join(scratch, written), outputPath);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
      return;
    }
    default:
      throw ServiceFailure.validation(`the document family does not write ${job.inputFormat} to ${outputFormat}`);
  }
}
