import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '@transmute/devstack';

/** The SDK's client over Streamable HTTP, authenticated by headers (an API key) or an OAuth provider. */
export async function connectClient(mcpUrl: string, auth: { headers: Record<string, string> } | { provider: OAuthClientProvider }): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), 'provider' in auth ? { authProvider: auth.provider } : { requestInit: { headers: auth.headers } });
  const client = new Client({ name: 'transmute-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export interface ProgressSeen {
  progress: number;
  total?: number;
  message?: string;
}

/** tools/call with a progress token; returns the result and every progress notification seen. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<{ result: CallToolResult; progress: ProgressSeen[] }> {
  const progress: ProgressSeen[] = [];
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (update) => progress.push(update),
    timeout: 120_000,
  })) as CallToolResult;
  return { result, progress };
}

export const textOf = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

/** get_job until the job is finished or failed. */
export async function pollJob(client: Client, jobId: string, timeoutMs = 90_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { result } = await callTool(client, 'get_job', { job_id: jobId });
    if (result.isError) throw new Error(`get_job failed: ${textOf(result)}`);
    const job = result.structuredContent as Record<string, any>;
    if (job['status'] === 'finished' || job['status'] === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job['status']} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const INSPECTOR = join(repoRoot(), 'e2e', 'node_modules', '.bin', 'mcp-inspector');

/**
 * The MCP Inspector's CLI mode (@modelcontextprotocol/inspector, built on the
 * SDK's v2 client packages, independent of this server's SDK): one method
 * against the server, its JSON output parsed.
 */
export async function inspector(mcpUrl: string, args: string[]): Promise<any> {
  const home = await mkdtemp(join(tmpdir(), 'mcp-inspector-'));
  try {
    const { stdout } = await promisify(execFile)(INSPECTOR, ['--cli', mcpUrl, '--transport', 'http', ...args], {
      // Its catalog and any state go to a throw-away folder; no telemetry or update checks exist in CLI mode.
      env: { PATH: process.env['PATH'] ?? '', HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json'), NO_COLOR: '1' },
      timeout: 90_000,
    });
    return JSON.parse(stdout);
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`mcp-inspector ${args.join(' ')} failed: ${failed.stdout ?? ''} ${failed.stderr ?? failed.message}`);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
