/**
 * Bounded property-based runs of schemathesis against the running platform's
 * /openapi.json: requests generated from the document, every reply checked
 * for a 5xx and for a body or status the document does not allow. The first
 * run fuzzes each operation on its own (issue 3); the second is stateful
 * (issue 17): it follows the document's OpenAPI links (create a job → get it,
 * start it; create an import → send its bytes) so later calls hit real ids.
 * Any finding fails the run; a missing schemathesis is a failure too.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@transmute/devstack';
import { platformFixture } from '../support/platform-fixture';

const env = platformFixture({ name: 'schemathesis' });

const SCHEMATHESIS = join(repoRoot(), '.tools/venv/bin/schemathesis');
/** Examples per operation; with ~10 operations this keeps the run near two minutes on a shared machine. */
const MAX_EXAMPLES = 25;
const BUDGET_MS = 240_000;
/** Stateful scenarios (link chains) per run; about 700 requests, well under a minute. */
const STATEFUL_EXAMPLES = 100;
const STATEFUL_BUDGET_MS = 180_000;

interface Run {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], timeoutMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function requireSchemathesis(): void {
  if (!existsSync(SCHEMATHESIS)) {
    throw new Error(
      `schemathesis is not installed at ${SCHEMATHESIS}: run make test-tools (bash libs/devstack/bin/install-tools.sh test; it is listed in libs/devstack/bin/packages/requirements.txt)`,
    );
  }
}

/** Runs schemathesis with the shared arguments plus `extra`; throws with its output on any finding. */
async function schemathesis(label: string, extra: string[], budgetMs: number): Promise<void> {
  requireSchemathesis();
  const { platform } = env();
  const started = Date.now();
  const result = await run(
    SCHEMATHESIS,
    [
      'run',
      `${platform.baseUrl}/openapi.json`,
      '--url',
      platform.baseUrl,
      '--header',
      `Authorization: Bearer ${platform.devApiKey}`,
      '--seed',
      '20261121',
      '--request-timeout',
      '20',
      // The event stream stays open until its job ends: not a request/response operation to fuzz.
      '--exclude-path',
      '/v1/process/jobs/{jobId}/events',
      '--no-color',
      ...extra,
    ],
    budgetMs,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`[schemathesis ${label}] exit ${result.code} after ${seconds} s\n${result.output.slice(-4000)}\n`);
  if (result.code !== 0) throw new Error(`schemathesis (${label}) exited ${result.code ?? 'killed at the time budget'} after ${seconds} s:\n${result.output.slice(-8000)}`);
}

test(
  'schemathesis finds no 5xx and no reply outside /openapi.json',
  () =>
    schemathesis(
      'per operation',
      ['--phases', 'examples,coverage,fuzzing', '--checks', 'not_a_server_error,response_schema_conformance', '--max-examples', String(MAX_EXAMPLES)],
      BUDGET_MS,
    ),
  BUDGET_MS + 30_000,
);

test(
  'schemathesis in stateful mode, following the OpenAPI links, finds no 5xx and no reply outside /openapi.json',
  async () => {
    await schemathesis(
      'stateful',
      [
        '--phases',
        'stateful',
        '--checks',
        'not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,use_after_free,ensure_resource_availability',
        '--max-examples',
        String(STATEFUL_EXAMPLES),
      ],
      STATEFUL_BUDGET_MS,
    );
  },
  STATEFUL_BUDGET_MS + 30_000,
);
