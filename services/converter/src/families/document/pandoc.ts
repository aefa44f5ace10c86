import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import type { DocumentJob } from './document-options';
import { MARKUP_READERS, MARKUP_WRITERS } from './markup-formats';

const TIMEOUT_MS = 5 * 60_000;

/**
 * pandoc 2.17's `--sandbox` breaks the writers that need their own data
 * files (docx, odt, epub, pptx: "Could not find data file"). Those run in two
 * steps: the reader under `--sandbox` (so `\input`, `.. include::` and the
 * like cannot read the converter's files), then the writer from pandoc's
 * JSON with a filter that drops every image not embedded as a data: URI (so
 * the writer fetches nothing either).
 */
const SANDBOX_BROKEN_WRITERS = new Set(['docx', 'odt']);
const DROP_EXTERNAL_MEDIA = `-- Only images carried inside the document survive; any other source would be read from disk or network.
function Image(image)
  if image.src:match('^data:') then return image end
  return image.caption
end
`;

/** `job.outputFormat` is an extension of MARKUP_WRITERS. */
export async function convertWithPandoc(job: DocumentJob): Promise<void> {
  const reader = MARKUP_READERS[job.inputFormat]!;
  const writer = MARKUP_WRITERS[job.outputFormat]!;
  const writerArgs = ['--to', writer.writer, '--output', job.outputPath];
  // The table of contents is a template variable: it needs a standalone document.
  if (writer.standalone || job.settings.tableOfContents) writerArgs.push('--standalone');
  if (job.settings.tableOfContents) writerArgs.push('--toc');
  if (job.settings.numberSections) writerArgs.push('--number-sections');
  // HTML needs a title; a neutral one instead of a warning and a guess from the file name.
  writerArgs.push('--metadata', 'pagetitle=Document');
  const run = (args: string[]) => runEngine({ command: 'pandoc', args, timeoutMs: TIMEOUT_MS, signal: job.signal });

  if (!SANDBOX_BROKEN_WRITERS.has(job.outputFormat)) {
    await run(['--sandbox', '--from', reader, ...writerArgs, job.inputPath]);
    return;
  }
  const scratch = await mkdtemp(join(dirname(job.outputPath), 'pandoc-ast-'));
  try {
    const ast = join(scratch, 'document.json');
    const filter = join(scratch, 'drop-external-media.lua');
    await writeFile(filter, DROP_EXTERNAL_MEDIA);
    await run(['--sandbox', '--from', reader, '--to', 'json', '--output', ast, job.inputPath]);
    await run(['--from', 'json', '--lua-filter', filter, ...writerArgs, ast]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
