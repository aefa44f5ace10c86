import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAMILIES } from '../src/families/registry';
import { runOptionChecks } from '../src/matrix/fidelity/option-checks';
import { runFamilyMatrix } from '../src/matrix/matrix-runner';
import { PROOFS } from '../src/matrix/proofs';

/**
 * The `make test` slice of a family's matrix: every input format read once
 * and every output format written once, each a real conversion whose content
 * the family's proof compares with its source (`pnpm matrix --fidelity`);
 * then every option check once. A family's spec is one line:
 * `describeFamilyMatrix('image');`
 */
export function describeFamilyMatrix(name: string, options: { timeoutMs?: number; concurrency?: number } = {}): void {
  describe(`${name} family matrix (covering subset)`, () => {
    it(
      'converts every listed input format and writes every listed output format',
      async () => {
        const createFamily = FAMILIES[name];
        const createProof = PROOFS[name];
        if (!createFamily) throw new Error(`family ${name} is not in src/families/registry.ts`);
        if (!createProof) throw new Error(`family ${name} has no proof in src/matrix/proofs.ts`);
        const proof = createProof();
        const report = await runFamilyMatrix({
          family: createFamily(),
          proof,
          subset: true,
          fidelity: true,
          concurrency: options.concurrency ?? 2,
          workDir: join(tmpdir(), 'transmute-matrix-test'),
        }).finally(() => proof.dispose?.());
        const failures = report.failures.map((failure) => `${failure.inputFormat} -> ${failure.outputFormat} [${failure.stage}]: ${failure.error}`);
        expect(failures).toEqual([]);
        expect(report.run).toBeGreaterThan(0);
        expect(report.passed).toBe(report.run);
        const covered = (key: 'inputFormat' | 'outputFormat') => new Set(report.results.map((result) => result[key])).size;
        expect([covered('inputFormat'), covered('outputFormat')]).toEqual([report.inputFormats, report.outputFormats]);
      },
      options.timeoutMs ?? 900_000,
    );

    it(
      'keeps the promise of every option it lists (each option check once)',
      async () => {
        const proof = PROOFS[name]!();
        const results = await runOptionChecks({ family: FAMILIES[name]!(), proof, subset: true, workDir: join(tmpdir(), 'transmute-matrix-test') }).finally(() =>
          proof.dispose?.(),
        );
        expect(results.filter((result) => !result.passed).map((result) => `${result.option} ${result.inputFormat} -> ${result.outputFormat}: ${result.error}`)).toEqual([]);
        const listed = new Set(
          FAMILIES[name]!()
            .pairs()
            .flatMap((pair) => pair.options.map((option) => option.name)),
        );
        expect(new Set(results.map((result) => result.option))).toEqual(listed);
      },
      options.timeoutMs ?? 900_000,
    );
  });
}
