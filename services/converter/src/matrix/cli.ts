import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FAMILIES } from '../families/registry';
import { type FamilyMatrixReport, runFamilyMatrix } from './matrix-runner';
import { summarize, writeReport } from './matrix-report';
import { PROOFS } from './proofs';
import { runOptionChecks } from './fidelity/option-checks';

const USAGE =
  'usage: pnpm matrix [--family <name>]... [--subset] [--fidelity] [--without-notes] [--no-options] [--options-only] [--input <format>] [--output <format>] [--concurrency <n>] [--out <dir>]';

/** `pnpm matrix`: converts every listed pair of the chosen families (default: all) and writes the report. */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      family: { type: 'string', multiple: true },
      subset: { type: 'boolean', default: false },
      fidelity: { type: 'boolean', default: false },
      'no-options': { type: 'boolean', default: false },
      'options-only': { type: 'boolean', default: false },
      'without-notes': { type: 'boolean', default: false },
      input: { type: 'string', multiple: true },
      output: { type: 'string', multiple: true },
      concurrency: { type: 'string', default: String(Math.max(1, availableParallelism())) },
      out: { type: 'string', default: '.' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const names = values.family?.flatMap((value) => value.split(',')) ?? Object.keys(FAMILIES);
  const unknown = names.filter((name) => !(name in FAMILIES));
  if (unknown.length > 0) {
    console.error(`unknown family: ${unknown.join(', ')}; known: ${Object.keys(FAMILIES).join(', ')}\n${USAGE}`);
    return 2;
  }
  const inputs = values.input ? new Set(values.input.flatMap((value) => value.split(','))) : undefined;
  const outputs = values.output ? new Set(values.output.flatMap((value) => value.split(','))) : undefined;
  const runOptions = values.fidelity && !values['no-options'];
  const concurrency = Number(values.concurrency);
  const reports: FamilyMatrixReport[] = [];
  for (const name of names) {
    const proof = PROOFS[name];
    if (!proof) {
      console.error(`${name}: no proof registered in src/matrix/proofs.ts`);
      return 2;
    }
    const family = FAMILIES[name]!();
    process.stdout.write(`${name}: ${family.engineVersion}\n`);
    let done = 0;
    const familyProof = proof();
    const report = await runFamilyMatrix({
      family,
      proof: familyProof,
      subset: values.subset,
      fidelity: values.fidelity,
      withoutNotes: values['without-notes'],
      concurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : 2,
      workDir: join(tmpdir(), 'transmute-matrix'),
      filter: (pair) => !values['options-only'] && (!inputs || inputs.has(pair.inputFormat)) && (!outputs || outputs.has(pair.outputFormat)),
      onResult: (result) => {
        done += 1;
        if (!result.passed) process.stdout.write(`  FAIL ${result.inputFormat} -> ${result.outputFormat} [${result.stage}] ${result.error}\n`);
        else if (done % 100 === 0) process.stdout.write(`  ${done} pairs done\n`);
      },
    });
    if (runOptions) {
      const optionsStarted = Date.now();
      report.options = await runOptionChecks({
        family: FAMILIES[name]!(),
        proof: familyProof,
        subset: values.subset,
        workDir: join(tmpdir(), 'transmute-matrix'),
        onResult: (result) => {
          if (!result.passed) process.stdout.write(`  OPTION FAIL ${result.option} ${result.inputFormat} -> ${result.outputFormat}: ${result.error}\n`);
        },
      });
      report.durationMs += Date.now() - optionsStarted;
      const failed = report.options.filter((check) => !check.passed).length;
      process.stdout.write(`${name}: ${report.options.length - failed}/${report.options.length} option checks passed\n`);
    }
    report.withdrawn = familyProof.withdrawn ?? [];
    report.narrowed = familyProof.narrowed ?? [];
    await familyProof.dispose?.();
    process.stdout.write(
      `${name}: ${report.passed}/${report.run} passed (${report.listed} listed, ${report.inputFormats} inputs, ${report.outputFormats} outputs) in ${(report.durationMs / 1000).toFixed(1)} s\n`,
    );
    reports.push(report);
  }
  const summary = summarize(reports);
  const written = await writeReport(summary, resolve(values.out));
  process.stdout.write(`total: ${summary.totals.passed}/${summary.totals.run} passed; report: ${written.join(', ')}\n`);
  return summary.totals.failed === 0 && summary.totals.optionChecksFailed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
