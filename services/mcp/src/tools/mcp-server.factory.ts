import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PlatformClient } from '../platform/platform-client';
import type { McpCaller } from './caller';
import { registerConvert } from './convert.tool';
import { registerGetJob } from './get-job.tool';
import { registerListFormats } from './list-formats.tool';

export const SERVER_INFO = { name: 'transmute', version: '1.0.0' } as const;

/**
 * One MCP server per HTTP request (stateless Streamable HTTP): it knows its
 * caller, so every tool acts for that account only, and any replica can
 * answer any request.
 */
export function buildMcpServer(platform: PlatformClient, caller: McpCaller, options: { convertWaitMs: number }): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Transmute converts files between formats. list_formats says which conversions exist; convert takes a public URL and a target format; ' +
      'get_job reports a job and its download links.',
  });
  registerListFormats(server, platform);
  registerConvert(server, platform, caller, { waitMs: options.convertWaitMs });
  registerGetJob(server, platform, caller);
  return server;
}
