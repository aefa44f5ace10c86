import { rename } from 'node:fs/promises';
import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { DocumentJob, DocumentSettings } from './document-options';

/** What poppler (for PDF) and Ghostscript (for PostScript) write, by input format. */
export const PDF_TOOL_OUTPUTS: Record<string, readonly string[]> = {
  pdf: ['png', 'jpg', 'tiff', 'svg', 'eps', 'ps', 'txt', 'html'],
  // No txt: pdftops writes its fonts without a text mapping, so Ghostscript's txtwrite finds no text.
  ps: ['pdf', 'png', 'jpg'],
  eps: ['pdf', 'png', 'jpg'],
};

const TIMEOUT_MS = 5 * 60_000;

export async function convertWithPdfTools(job: DocumentJob): Promise<void> {
  if (job.inputFormat === 'pdf') return popplerConvert(job);
  return ghostscriptConvert(job);
}

function pageArgs(settings: DocumentSettings): string[] {
  const args: string[] = [];
  if (settings.pageFrom) args.push('-f', String(settings.pageFrom));
  if (settings.pageTo) args.push('-l', String(settings.pageTo));
  return args;
}

async function popplerConvert({ inputPath, outputPath, outputFormat, settings, signal }: DocumentJob): Promise<void> {
  const onePage = ['-f', String(settings.page), '-l', String(settings.page)];
  const run = (command: string, args: string[]) => runEngine({ command, args, timeoutMs: TIMEOUT_MS, signal });
  switch (outputFormat) {
    case 'png':
    case 'jpg':
    case 'tiff': {
      // pdftocairo appends its own extension to the base name it is given.
      const base = outputPath.replace(/\.[^./]+$/, '');
      const flag = { png: '-png', jpg: '-jpeg', tiff: '-tiff' }[outputFormat];
      await run('pdftocairo', [flag, '-singlefile', '-r', String(settings.dpi), ...onePage, inputPath, base]);
      const written = `${base}.${outputFormat === 'tiff' ? 'tif' : outputFormat}`;
      if (written !== outputPath) await rename(written, outputPath);
      return;
    }
    case 'svg':
      await run('pdftocairo', ['-svg', ...onePage, inputPath, outputPath]);
      return;
    case 'eps':
      await run('pdftocairo', ['-eps', ...onePage, inputPath, outputPath]);
      return;
    case 'ps':
      await run('pdftops', [...pageArgs(settings), inputPath, outputPath]);
      return;
    case 'txt':
      await run('pdftotext', [...pageArgs(settings), ...(settings.keepLayout ? ['-layout'] : []), '-enc', 'UTF-8', inputPath, outputPath]);
      return;
    case 'html':
      // One self-contained page: no frames, no extracted images next to it.
      await run('pdftohtml', ['-s', '-i', '-noframes', '-q', ...pageArgs(settings), inputPath, outputPath]);
      return;
    default:
      throw ServiceFailure.validation(`the document family does not write pdf to ${outputFormat}`);
  }
}

async function ghostscriptConvert({ inputPath, outputPath, inputFormat, outputFormat, settings, signal }: DocumentJob): Promise<void> {
  const device = { pdf: 'pdfwrite', png: 'png16m', jpg: 'jpeg' }[outputFormat];
  if (!device) throw ServiceFailure.validation(`the document family does not write ${inputFormat} to ${outputFormat}`);
  const raster = outputFormat === 'png' || outputFormat === 'jpg';
  const args = [
    // -dSAFER: PostScript is a program; keep it away from the file system.
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-q',
    `-sDEVICE=${device}`,
    ...(inputFormat === 'eps' ? ['-dEPSCrop'] : []),
    ...(raster ? [`-r${settings.dpi}`, '-dFirstPage=1', '-dLastPage=1', '-dTextAlphaBits=4', '-dGraphicsAlphaBits=4'] : []),
    `-sOutputFile=${outputPath}`,
    inputPath,
  ];
  await runEngine({ command: 'gs', args, timeoutMs: TIMEOUT_MS, signal });
}
