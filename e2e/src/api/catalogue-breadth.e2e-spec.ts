/**
 * "The service converts files between more than 400 formats" (spec, What the
 * service does): the catalogue, with every converter family this build
 * registers running (as `make up` runs them), lists more than 400 readable
 * formats. Counted on the API's own answer.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@transmute/devstack';
import { platformFixture } from '../support/platform-fixture';

/** The registered families, asked of the built converter as `make up` asks it. */
const families = JSON.parse(execFileSync(process.execPath, [join(repoRoot(), 'services/converter/dist/families/list-families.js')], { encoding: 'utf8' })) as string[];
const env = platformFixture({ name: 'catalogue-breadth', families });

test('GET /v1/formats lists more than 400 formats, each once, sorted', async () => {
  const { client } = env();
  const deadline = Date.now() + 120_000;
  let body: { count: number; formats: string[] };
  // Each family announces its manifest when it starts: wait until every one of them is in the catalogue.
  for (;;) {
    body = (await client.request('GET', '/v1/formats')).json as { count: number; formats: string[] };
    if (body.count > 400 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  process.stdout.write(`[catalogue-breadth] ${families.length} families, ${body.count} readable formats\n`);
  expect(families.length).toBeGreaterThanOrEqual(8);
  expect(body.count).toBe(body.formats.length);
  expect(new Set(body.formats).size).toBe(body.formats.length);
  expect([...body.formats].sort()).toEqual(body.formats);
  expect(body.count).toBeGreaterThan(400);
});
