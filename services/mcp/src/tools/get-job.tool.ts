import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { PlatformClient } from '../platform/platform-client';
import type { McpCaller } from './caller';
import { JobSummary, summariseJob } from './job-summary';
import { toolError, toolErrorOf } from './tool-errors';

const JOB_ID = /^[0-9a-f]{32}$/;

export function registerGetJob(server: McpServer, platform: PlatformClient, caller: McpCaller): void {
  server.registerTool(
    'get_job',
    {
      title: 'Get a job',
      description: "The status of a conversion job of this account, each task's status and result, and the download links once it has finished.",
      inputSchema: { job_id: z.string().describe('The job id convert returned (32 lowercase hex characters).') },
      outputSchema: JobSummary.shape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ job_id }) => {
      if (!JOB_ID.test(job_id)) return toolError(`"${job_id}" is not a job id`, 'Pass the job_id convert returned: 32 lowercase hex characters.');
      try {
        const summary = summariseJob(await platform.job(job_id, caller.accountId));
        return { structuredContent: summary, content: [{ type: 'text', text: `${summary.status}. ${summary.next_step}` }] };
      } catch (error) {
        return toolErrorOf(error);
      }
    },
  );
}
