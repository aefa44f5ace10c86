import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../engine/run-engine';

/** Pages of the benchmark document. */
export const DOCX_PAGES = 10;
const PAGE_BREAK = '\n```{=openxml}\n<w:p><w:r><w:br w:type="page"/></w:r></w:p>\n```\n';

/**
 * Writes `<dir>/ten-pages.docx`, a 10-page DOCX made by pandoc at run time
 * (no binary in git), and returns its path. bench:document and
 * bench:throughput convert this same document.
 */
export async function writeTenPageDocx(dir: string, signal: AbortSignal): Promise<string> {
  const markdown = join(dir, 'ten-pages.md');
  const paragraph = 'Transmute converts documents with a warm office suite. '.repeat(12);
  const pages = Array.from({ length: DOCX_PAGES }, (_, index) => `# Page ${index + 1}\n\n${paragraph}\n\n${paragraph}\n`);
  await writeFile(markdown, pages.join(PAGE_BREAK));
  const docx = join(dir, 'ten-pages.docx');
  await runEngine({ command: 'pandoc', args: ['-o', docx, markdown], timeoutMs: 60_000, signal });
  return docx;
}
