import { compareDocumented, documentedVariables, readVariables, variablesIn } from './env-docs';
import { repoRoot } from '../repo-root';

describe('the README variables check', () => {
  it('finds the variables a TypeScript file reads, over several lines too, and a shell script expands', () => {
    const code = `envVar(\n  'TRANSMUTE_A',\n  z.string());\nconst b = process.env.TRANSMUTE_B;\nconst c = env['TRANSMUTE_C'];\n// TRANSMUTE_IN_A_COMMENT is prose`;
    expect(variablesIn(code, 'code').sort()).toEqual(['TRANSMUTE_A', 'TRANSMUTE_B', 'TRANSMUTE_C']);
    expect(variablesIn('cache="${TRANSMUTE_TOOLS_CACHE:-$HOME}"; echo $TRANSMUTE_X', 'shell').sort()).toEqual(['TRANSMUTE_TOOLS_CACHE', 'TRANSMUTE_X']);
  });

  it("reads the Configuration table's first column, two names to a row included, and nothing outside the section", () => {
    const readme = [
      '## Walk-through',
      '| `TRANSMUTE_ELSEWHERE` | not the table |',
      '## Configuration',
      '| variable | default |',
      '|---|---|',
      '| `TRANSMUTE_A` | `1` |',
      '| `TRANSMUTE_B` / `TRANSMUTE_C` | — | mentions `TRANSMUTE_D` in its meaning |',
      '## Website',
    ].join('\n');
    expect([...documentedVariables(readme)].sort()).toEqual(['TRANSMUTE_A', 'TRANSMUTE_B', 'TRANSMUTE_C']);
  });

  it('names the variables missing from the table and those the code does not read', () => {
    const reads = new Map([
      ['TRANSMUTE_A', ['a.ts']],
      ['TRANSMUTE_NEW', ['b.ts']],
    ]);
    expect(compareDocumented(reads, new Set(['TRANSMUTE_A', 'TRANSMUTE_GONE']))).toEqual({ undocumented: ['TRANSMUTE_NEW'], unread: ['TRANSMUTE_GONE'] });
  });

  it("finds this repository's own variables, among them the engine supervisor's and the jobs in flight", () => {
    const reads = readVariables(repoRoot());
    for (const name of [
      'TRANSMUTE_ENGINE_QUEUE_LIMIT',
      'TRANSMUTE_ENGINE_IDLE_STOP_MS',
      'TRANSMUTE_ENGINE_FAILURE_THRESHOLD',
      'TRANSMUTE_JOBS_MAX_IN_FLIGHT',
      'TRANSMUTE_TOOLS_CACHE',
    ]) {
      expect(reads.has(name)).toBe(true);
    }
    // Test-only names never count: a spec's fixtures are not configuration.
    expect([...reads.values()].flat().some((file) => /\.spec\.ts$/.test(file))).toBe(false);
  });
});
