#!/usr/bin/env node
/**
 * `make test`'s check that README.md's Configuration table names every
 * TRANSMUTE_* variable the code reads, and no variable the code does not
 * read. Exit 1 naming each one (and where it is read).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareDocumented, documentedVariables, readVariables } from '../docs/env-docs';
import { repoRoot } from '../repo-root';

const root = repoRoot();
const reads = readVariables(root);
const { undocumented, unread } = compareDocumented(reads, documentedVariables(readFileSync(join(root, 'README.md'), 'utf8')));
for (const name of undocumented) console.error(`README.md's Configuration table lacks ${name} (read in ${reads.get(name)!.join(', ')})`);
for (const name of unread) console.error(`README.md's Configuration table lists ${name}, which no code reads`);
if (undocumented.length + unread.length > 0) process.exit(1);
console.log(`README.md documents all ${reads.size} TRANSMUTE_* variables the code reads`);
