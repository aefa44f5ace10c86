/**
 * The MCP server with an API key (issue 16): a second, independent client
 * (the MCP Inspector's CLI) lists the tools; the REST API's rate limit,
 * quota and public-address rule apply to MCP calls as they are.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { platformFixture } from '../support/platform-fixture';
import { accountWithKey, awayFromWindowEdge, call, LIMIT_PLANS } from '../limits/limits-support';
import { callTool, connectClient, inspector, pollJob, textOf } from './mcp-support';

// Private networks are NOT allowed here: the public-address rule is under test.
const env = platformFixture({
  name: 'mcp-api-key',
  extraEnv: { TRANSMUTE_PLANS: JSON.stringify(LIMIT_PLANS), TRANSMUTE_MCP_CONVERT_WAIT_MS: '2000' },
});
const mcpUrl = () => env().platform.mcpUrl;
const TOOLS = ['convert', 'get_job', 'list_formats'];

/** A bare JSON-RPC POST (stateless server: tools/list needs no session), to count HTTP requests exactly. */
async function rawToolsList(key: string | null, headers: Record<string, string> = {}) {
  const response = await fetch(mcpUrl(), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(key && { Authorization: `Bearer ${key}` }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

let source: Server;
let loopbackUrl: string;
beforeAll(async () => {
  source = createServer((_request, response) => void response.writeHead(200, { 'Content-Type': 'image/png' }).end('not reached'));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  loopbackUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/photo.png`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => source.close(() => resolve()));
});

describe('MCP with an API key', () => {
  test('the MCP Inspector CLI lists the tools with the key as a bearer token', async () => {
    const listed = await inspector(mcpUrl(), ['--method', 'tools/list', '--header', `Authorization: Bearer ${env().platform.devApiKey}`]);
    expect((listed.tools as Array<{ name: string }>).map((tool) => tool.name).sort()).toEqual(TOOLS);
  });

  test('the SDK client with X-API-Key sees schemas and annotations on every tool', async () => {
    const client = await connectClient(mcpUrl(), { headers: { 'X-API-Key': env().platform.devApiKey } });
    try {
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      expect(Object.keys(byName).sort()).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.description).toBeTruthy();
      }
      expect(byName['list_formats']?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(byName['get_job']?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName['convert']?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true, idempotentHint: false });
      expect(byName['convert']?.inputSchema.required).toEqual(expect.arrayContaining(['url', 'output_format']));
      expect(byName['get_job']?.outputSchema?.required).toEqual(expect.arrayContaining(['job_id', 'status', 'downloads', 'tasks']));

      const formats = await callTool(client, 'list_formats', { input_format: 'PNG' });
      expect(formats.result.isError).toBeFalsy();
      expect(formats.result.structuredContent).toMatchObject({ input_format: 'png', formats: expect.arrayContaining(['jpg', 'webp']) });
      const unreadable = await callTool(client, 'list_formats', { input_format: 'zzz' });
      expect(unreadable.result.isError).toBe(true);
      expect(textOf(unreadable.result)).toMatch(/without input_format/);
      const all = await callTool(client, 'list_formats', {});
      expect((all.result.structuredContent as { input_format: null; formats: string[] }).formats).toEqual(expect.arrayContaining(['png', 'jpg']));

      const badId = await callTool(client, 'get_job', { job_id: 'not-a-job' });
      expect(badId.result.isError).toBe(true);
      expect(textOf(badId.result)).toMatch(/32 lowercase hex/);
      const unknownJob = await callTool(client, 'get_job', { job_id: 'f'.repeat(32) });
      expect(unknownJob.result.isError).toBe(true);
      expect(textOf(unknownJob.result)).toMatch(/Check the id/);
    } finally {
      await client.close();
    }
  });

  test('no credential: 401 with WWW-Authenticate naming the protected-resource metadata; a wrong key: 401 invalid_token; bad JSON: parse error', async () => {
    const missing = await rawToolsList(null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${mcpUrl()}/.well-known/oauth-protected-resource"`);
    expect(JSON.parse(missing.text)).toEqual({ status: 'error', message: expect.any(String) });

    const notJson = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${env().platform.devApiKey}` },
      body: '{"jsonrpc": ',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });

    const wrong = await rawToolsList('tm_nosuchkey_0000000000000000000000000000');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="[^"]+", error="invalid_token"/);
  });

  test('the public-address rule: a loopback URL is refused when the job runs, as for import/url', async () => {
    const client = await connectClient(mcpUrl(), { headers: { Authorization: `Bearer ${env().platform.devApiKey}` } });
    try {
      const { result } = await callTool(client, 'convert', { url: loopbackUrl, output_format: 'jpg' });
      expect(result.isError).toBeFalsy();
      const created = result.structuredContent as { job_id: string };
      const job = await pollJob(client, created.job_id);
      expect(job['status']).toBe('failed');
      expect(job['error']).toMatch(/loopback/);
      expect(job['downloads']).toEqual([]);
      expect(job['next_step']).toMatch(/^Failed/);
    } finally {
      await client.close();
    }
  });

  test("the rate limit: MCP requests count in the same window as the key's REST requests", async () => {
    const { key } = await accountWithKey(env().platform, 'e2e-rate');
    await awayFromWindowEdge();
    for (let i = 0; i < 2; i += 1) expect((await call(env().platform.baseUrl, 'GET', '/v1/formats', key)).status).toBe(200);
    const allowed = LIMIT_PLANS['e2e-rate'].rateLimitPerMinute - 2;
    for (let i = 0; i < allowed; i += 1) {
      const answer = await rawToolsList(key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(allowed - i - 1));
    }
    const refused = await rawToolsList(key);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(JSON.parse(refused.text)).toEqual({ status: 'error', message: expect.stringContaining('rate limit'), retry_after: retryAfter });
    // And the REST API sees the same spent window.
    expect((await call(env().platform.baseUrl, 'GET', '/v1/formats', key)).status).toBe(429);
  });

  test('the quota: conversions beyond the daily allowance are a tool error saying what to do, and REST refuses with 402 too', async () => {
    const { key } = await accountWithKey(env().platform, 'e2e-daily');
    const client: Client = await connectClient(mcpUrl(), { headers: { Authorization: `Bearer ${key}` } });
    try {
      for (let i = 0; i < LIMIT_PLANS['e2e-daily'].dailyConversions; i += 1) {
        const { result } = await callTool(client, 'convert', { url: 'https://example.com/photo.png', output_format: 'jpg' });
        expect(result.isError).toBeFalsy();
      }
      const { result } = await callTool(client, 'convert', { url: 'https://example.com/photo.png', output_format: 'jpg' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/conversions/);
      expect(textOf(result)).toMatch(/quota is used up.*Do not retry now/);
    } finally {
      await client.close();
    }
    const rest = await call(env().platform.baseUrl, 'POST', '/v1/process/jobs', key, {
      tasks: {
        i: { operation: 'import/url', url: 'https://example.com/photo.png' },
        c: { operation: 'convert', input: 'i', output_format: 'jpg' },
      },
    });
    expect(rest.status).toBe(402);
  });
});
