import { openApiDocument } from '../openapi';
import { BASELINE_FILE, readBaseline, writeBaseline } from './baseline-file';
import { contractSurface } from './contract-surface';

/**
 * `pnpm contract:baseline`: records the document's new routes and fields in
 * the baseline. Lines the document lost are kept: removing one is the
 * deprecation register's business, not this script's.
 */
const baseline = readBaseline();
const current = contractSurface(openApiDocument());
const added = current.filter((line) => !baseline.includes(line));
writeBaseline([...baseline, ...current]);
process.stdout.write(`${BASELINE_FILE}: ${added.length} line(s) added, ${baseline.length + added.length} in all\n`);
for (const line of added) process.stdout.write(`+ ${line}\n`);
