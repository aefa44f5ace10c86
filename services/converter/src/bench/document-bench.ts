import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runEngine } from '../engine/run-engine';
import { OfficePool } from '../families/document/office-pool/office-pool';
import { writeTenPageDocx } from './ten-page-docx';

/**
 * `pnpm bench:document [--runs N]`: DOCX → PDF seconds per document, on the
 * document family's warm LibreOffice (over UNO) against a cold
 * `soffice --convert-to pdf` per document, in one run on this machine. The
 * 10-page DOCX is made by pandoc; each side gets one untimed warm-up (the
 * pool's start, the cold side's first profile creation).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
  const runs = Math.max(1, Number(values.runs) || 10);
  const dir = await mkdtemp(join(tmpdir(), 'transmute-bench-document-'));
  const signal = () => AbortSignal.timeout(120_000);
  try {
    const docx = await writeTenPageDocx(dir, signal());

    const pool = new OfficePool({ size: 1, maxConversions: 10_000, timeoutMs: 120_000, python: '/usr/bin/python3', soffice: 'soffice' });
    const warm: number[] = [];
    try {
      await pool.start();
      const job = (output: string) => ({ input: docx, output, importFilter: 'MS Word 2007 XML', filter: 'writer_pdf_Export' });
      await pool.convert(job(join(dir, 'warm-up.pdf')), signal());
      for (let run = 0; run < runs; run++) {
        const begin = process.hrtime.bigint();
        await pool.convert(job(join(dir, `warm-${run}.pdf`)), signal());
        warm.push(seconds(begin));
      }
    } finally {
      await pool.stop();
    }
    const { stdout } = await runEngine({ command: 'pdfinfo', args: [join(dir, 'warm-0.pdf')], timeoutMs: 30_000, signal: signal() });
    const pageCount = Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]);

    const profile = pathToFileURL(join(dir, 'cold-profile')).href;
    const cold: number[] = [];
    const coldRun = async (outDir: string) => {
      await runEngine({
        command: 'soffice',
        args: [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', outDir, docx],
        timeoutMs: 120_000,
        memoryLimitMb: 0,
        signal: signal(),
      });
      if ((await stat(join(outDir, 'ten-pages.pdf'))).size === 0) throw new Error('cold soffice wrote an empty PDF');
    };
    await coldRun(join(dir, 'cold-warm-up'));
    for (let run = 0; run < runs; run++) {
      const begin = process.hrtime.bigint();
      await coldRun(join(dir, `cold-${run}`));
      cold.push(seconds(begin));
    }

    const row = (label: string, times: number[]) =>
      `${label.padEnd(34)} ${median(times).toFixed(3).padStart(8)} ${mean(times).toFixed(3).padStart(8)} ${Math.min(...times)
        .toFixed(3)
        .padStart(8)} ${Math.max(...times)
        .toFixed(3)
        .padStart(8)}`;
    console.log(`DOCX -> PDF, ${pageCount}-page document, ${runs} runs each (seconds per document)`);
    console.log(`${''.padEnd(34)} ${'median'.padStart(8)} ${'mean'.padStart(8)} ${'min'.padStart(8)} ${'max'.padStart(8)}`);
    console.log(row('warm pool (UNO, 1 process)', warm));
    console.log(row('cold soffice --convert-to pdf', cold));
    console.log(`warm pool is ${(median(cold) / median(warm)).toFixed(1)}x faster (median)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const seconds = (begin: bigint) => Number(process.hrtime.bigint() - begin) / 1e9;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
