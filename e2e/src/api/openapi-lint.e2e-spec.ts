/**
 * The OpenAPI document lints clean with Redocly CLI's recommended rules
 * (issue 18): servers, license, and no other finding. The one accepted
 * exception (the download route's 302) is in libs/api-schema/redocly-lint-ignore.yaml.
 * A failure shows Redocly's own report.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from '@transmute/api-schema';

const repo = resolve(__dirname, '../../..');
const REDOCLY = join(repo, 'e2e/node_modules/.bin/redocly');

/** `redocly lint` on one document, in a folder holding it and the ignore file; exit code and report. */
async function lint(document: unknown): Promise<{ code: number; report: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document, null, 2));
    copyFileSync(join(repo, 'libs/api-schema/redocly-lint-ignore.yaml'), join(dir, '.redocly.lint-ignore.yaml'));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    return await promisify(execFile)(REDOCLY, ['lint', 'openapi.json', '--format', 'stylish'], { cwd: dir, env, timeout: 120_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, report: `${stdout}${stderr}` }),
      (error: { code?: number; stdout?: string; stderr?: string; message: string }) => ({
        code: typeof error.code === 'number' ? error.code : -1,
        report: `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function expectClean(result: { code: number; report: string }): void {
  // Redocly's report is the failure message, so the finding is named where the test fails.
  if (result.code !== 0 || !/Woohoo! Your API description is valid/.test(result.report)) {
    throw new Error(`redocly lint found problems (exit ${result.code}):\n${result.report}`);
  }
  expect(result.report).not.toMatch(/\b(error|warning)\b\s+[a-z0-9-]+/);
}

describe('OpenAPI document under Redocly lint', () => {
  it.each([
    ['as built (relative server)', undefined],
    ['as the gateway serves it (its public URL)', 'https://convert.acme.test'],
  ])('is clean %s', async (_name, publicUrl) => {
    const document = openApiDocument(publicUrl);
    expect(document.servers?.[0]?.url).toBe(publicUrl ?? '/');
    expect(document.info.license?.name).toBeTruthy();
    expectClean(await lint(document));
  });

  it('fails, with Redocly naming the rule, when the document breaks one (the lint can fail)', async () => {
    const { servers: _servers, ...withoutServers } = openApiDocument();
    const result = await lint(withoutServers);
    expect(result.code).not.toBe(0);
    expect(result.report).toContain('no-empty-servers');
  });
});
