import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where each TRANSMUTE_* variable is read: name -> files. */
export type VariableReads = Map<string, string[]>;

const IN_CODE = /['"`](TRANSMUTE_[A-Z0-9_]+)['"`]|process\.env\.(TRANSMUTE_[A-Z0-9_]+)/g;
const IN_SHELL = /\$\{?(TRANSMUTE_[A-Z0-9_]+)/g;
const TEST_FILE = /\.(spec|int-spec|e2e-spec|test-support)\.tsx?$/;

/** The variables a file reads: quoted names in TypeScript (an envVar's name, a key of process.env), expansions in shell. */
export function variablesIn(text: string, kind: 'code' | 'shell'): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(kind === 'code' ? IN_CODE : IN_SHELL)) found.add((match[1] ?? match[2])!);
  return [...found];
}

/** The variables the README's Configuration table documents (a row may name two: `A` / `B`). */
export function documentedVariables(readme: string): Set<string> {
  const start = readme.indexOf('\n## Configuration');
  if (start < 0) throw new Error('the README has no "## Configuration" section');
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const match of first.matchAll(/`(TRANSMUTE_[A-Z0-9_]+)`/g)) names.add(match[1]!);
  }
  return names;
}

/** What the README's table gets wrong: variables read but not documented, and documented but read nowhere. */
export function compareDocumented(reads: VariableReads, documented: Set<string>): { undocumented: string[]; unread: string[] } {
  return {
    undocumented: [...reads.keys()].filter((name) => !documented.has(name)).sort(),
    unread: [...documented].filter((name) => !reads.has(name)).sort(),
  };
}

/** Every variable the runtime code reads: services' and libs' sources (tests left out) and the tool scripts. */
export function readVariables(root: string): VariableReads {
  const reads: VariableReads = new Map();
  const note = (name: string, file: string) => reads.set(name, [...(reads.get(name) ?? []), relative(root, file)]);
  for (const group of ['services', 'libs']) {
    for (const pkg of readdirSync(join(root, group))) {
      for (const file of walk(join(root, group, pkg, 'src'))) {
        if (!/\.tsx?$/.test(file) || TEST_FILE.test(file) || file.includes(`${join('src', 'gen')}`)) continue;
        for (const name of variablesIn(readFileSync(file, 'utf8'), 'code')) note(name, file);
      }
    }
  }
  for (const file of walk(join(root, 'libs', 'devstack', 'bin'))) {
    if (file.endsWith('.sh')) for (const name of variablesIn(readFileSync(file, 'utf8'), 'shell')) note(name, file);
  }
  return reads;
}

function walk(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => (entry.isDirectory() ? (entry.name === 'node_modules' || entry.name === 'dist' ? [] : walk(join(dir, entry.name))) : [join(dir, entry.name)]));
}
