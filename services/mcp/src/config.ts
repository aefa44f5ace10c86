import { z } from 'zod';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';

export const mcpConfig = {
  ...baseConfig(8086),
  mcpPublicUrl: envVar(
    'TRANSMUTE_MCP_PUBLIC_URL',
    z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:8086/mcp'),
    "This server's URL as assistants reach it ({mcp_url}); its path is where MCP is served, and OAuth tokens are bound to it (RFC 8707).",
  ),
  publicUrl: envVar(
    'TRANSMUTE_PUBLIC_URL',
    z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:8080'),
    "The gateway's base URL ({base_url}): the OAuth authorization server named in the protected-resource metadata.",
  ),
  rpcTimeoutMs: envVar('TRANSMUTE_RPC_TIMEOUT_MS', positiveInt().default(5_000), 'How long a request to the gateway, orchestrator or catalogue waits for its answer.'),
  convertWaitMs: envVar(
    'TRANSMUTE_MCP_CONVERT_WAIT_MS',
    z.coerce.number().int().min(0).max(55_000).default(20_000),
    'How long the convert tool waits for its job to finish (sending progress) before answering with the job still running.',
  ),
};

export type McpConfig = ConfigOf<typeof mcpConfig>;
