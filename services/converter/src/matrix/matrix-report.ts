import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './fidelity/html-report';
import type { FamilyMatrixReport } from './matrix-runner';

export interface FamilyFigures {
  family: string;
  listed: number;
  run: number;
  passed: number;
  failed: number;
  /** Passed pairs that carry a declared loss (a note). */
  noted: number;
  withdrawn: number;
  narrowed: number;
  optionChecks: number;
  optionChecksFailed: number;
  seconds: number;
}

export interface MatrixReport {
  generatedAt: string;
  fidelity: boolean;
  families: FamilyMatrixReport[];
  figures: FamilyFigures[];
  totals: {
    listed: number;
    run: number;
    passed: number;
    failed: number;
    noted: number;
    withdrawn: number;
    narrowed: number;
    optionChecks: number;
    optionChecksFailed: number;
    seconds: number;
  };
}

export function figuresOf(family: FamilyMatrixReport): FamilyFigures {
  const options = family.options ?? [];
  return {
    family: family.family,
    listed: family.listed,
    run: family.run,
    passed: family.passed,
    failed: family.failures.length,
    noted: family.results.filter((result) => result.passed && result.note).length,
    withdrawn: family.withdrawn?.length ?? 0,
    narrowed: family.narrowed?.length ?? 0,
    optionChecks: options.length,
    optionChecksFailed: options.filter((check) => !check.passed).length,
    seconds: Math.round(family.durationMs / 1000),
  };
}

export function summarize(families: FamilyMatrixReport[]): MatrixReport {
  const figures = families.map(figuresOf);
  const sum = (pick: (figures: FamilyFigures) => number) => figures.reduce((total, entry) => total + pick(entry), 0);
  return {
    generatedAt: new Date().toISOString(),
    fidelity: families.some((family) => family.fidelity),
    families,
    figures,
    totals: {
      listed: sum((entry) => entry.listed),
      run: sum((entry) => entry.run),
      passed: sum((entry) => entry.passed),
      failed: sum((entry) => entry.failed),
      noted: sum((entry) => entry.noted),
      withdrawn: sum((entry) => entry.withdrawn),
      narrowed: sum((entry) => entry.narrowed),
      optionChecks: sum((entry) => entry.optionChecks),
      optionChecksFailed: sum((entry) => entry.optionChecksFailed),
      seconds: sum((entry) => entry.seconds),
    },
  };
}

const cell = (text: string | undefined) => (text ?? '').replace(/\|/g, '\\|');

export function renderMarkdown(report: MatrixReport): string {
  const what = report.fidelity
    ? 'Every pair is a real conversion of an engine-made sample, its content compared with the source by independent readers.'
    : 'Every pair is a real conversion of an engine-made sample, checked by a probe.';
  const lines = [
    report.fidelity ? '# Conversion matrix (fidelity)' : '# Conversion matrix',
    '',
    `Generated ${report.generatedAt}. ${what}`,
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
  if (report.fidelity) {
    lines.push(
      '| family | pairs run | passed | of them with a declared loss | failed | withdrawn | options narrowed | option checks | option checks failed |',
      '|---|---|---|---|---|---|---|---|---|',
      ...report.figures.map(
        (entry) =>
          `| ${entry.family} | ${entry.run} | ${entry.passed} | ${entry.noted} | ${entry.failed} | ${entry.withdrawn} | ${entry.narrowed} | ${entry.optionChecks} | ${entry.optionChecksFailed} |`,
      ),
      '',
    );
  }
  for (const family of report.families) {
    if (family.failures.length > 0) {
      lines.push(`## ${family.family}: failures`, '', '| pair | stage | error |', '|---|---|---|');
      for (const failure of family.failures) lines.push(`| ${failure.inputFormat} → ${failure.outputFormat} | ${failure.stage ?? ''} | ${cell(failure.error)} |`);
      lines.push('');
    }
    const failedOptions = (family.options ?? []).filter((check) => !check.passed);
    if (failedOptions.length > 0) {
      lines.push(`## ${family.family}: option checks that failed`, '', '| option | pair | promise | error |', '|---|---|---|---|');
      for (const check of failedOptions) lines.push(`| ${check.option} | ${check.inputFormat} → ${check.outputFormat} | ${cell(check.promise)} | ${cell(check.error)} |`);
      lines.push('');
    }
  }
  return lines.join('\n');
}

/** Writes `matrix-report.json`, `matrix-report.md` and `matrix-report.html` into `dir`, creating it (and its parents) when missing. */
export async function writeReport(report: MatrixReport, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'matrix-report.json');
  const markdown = join(dir, 'matrix-report.md');
  const html = join(dir, 'matrix-report.html');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(markdown, renderMarkdown(report));
  await writeFile(html, renderHtml(report));
  return [json, markdown, html];
}
