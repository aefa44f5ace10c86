import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FamilyMatrixReport } from './matrix-runner';

export interface MatrixReport {
  generatedAt: string;
  families: FamilyMatrixReport[];
  totals: { listed: number; run: number; passed: number; failed: number };
}

export function summarize(families: FamilyMatrixReport[]): MatrixReport {
  const sum = (pick: (report: FamilyMatrixReport) => number) => families.reduce((total, report) => total + pick(report), 0);
  return {
    generatedAt: new Date().toISOString(),
    families,
    totals: {
      listed: sum((report) => report.listed),
      run: sum((report) => report.run),
      passed: sum((report) => report.passed),
      failed: sum((report) => report.failures.length),
    },
  };
}

export function renderMarkdown(report: MatrixReport): string {
  const lines = [
    '# Conversion matrix',
    '',
    `Generated ${report.generatedAt}. Every pair is a real conversion of an engine-made sample, checked by a probe.`,
    '',
    '| family | mode | inputs | outputs | pairs listed | pairs run | passed | failed | seconds |',
    '|---|---|---|---|---|---|---|---|---|',
    ...report.families.map(
      (family) =>
        `| ${family.family} | ${family.mode} | ${family.inputFormats} | ${family.outputFormats} | ${family.listed} | ${family.run} | ${family.passed} | ${family.failures.length} | ${(family.durationMs / 1000).toFixed(1)} |`,
    ),
    `| **total** | | | | ${report.totals.listed} | ${report.totals.run} | ${report.totals.passed} | ${report.totals.failed} | |`,
    '',
  ];
  for (const family of report.families) {
    if (family.failures.length === 0) continue;
    lines.push(`## ${family.family}: failures`, '', '| pair | stage | error |', '|---|---|---|');
    for (const failure of family.failures) {
      lines.push(`| ${failure.inputFormat} → ${failure.outputFormat} | ${failure.stage ?? ''} | ${(failure.error ?? '').replace(/\|/g, '\\|')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Writes `matrix-report.json` and `matrix-report.md` into `dir`; returns their paths. */
/** Writes the JSON and Markdown reports into `dir`, creating it (and its parents) when missing. */
export async function writeReport(report: MatrixReport, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'matrix-report.json');
  const markdown = join(dir, 'matrix-report.md');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(markdown, renderMarkdown(report));
  return [json, markdown];
}
