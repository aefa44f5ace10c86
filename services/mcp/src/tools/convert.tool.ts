import { setTimeout as sleep } from 'node:timers/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { FORMAT_NAME_PATTERN } from '@transmute/contracts';
import type { Job } from '@transmute/contracts';
import type { PlatformClient } from '../platform/platform-client';
import type { McpCaller } from './caller';
import { isJobEnded, JobSummary, jobProgress, summariseJob } from './job-summary';
import { toolErrorOf } from './tool-errors';

const POLL_INTERVAL_MS = 500;
const format = (what: string) => z.string().regex(FORMAT_NAME_PATTERN, `${what} is a file extension: 1 to 16 letters or digits, e.g. "pdf"`);

const Input = {
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an http(s) URL' })
    .describe('Public http(s) URL of the file to convert. Private, loopback and link-local addresses are refused.'),
  output_format: format('output_format').describe('The format to convert to, e.g. "pdf" (list_formats tells which exist).'),
  input_format: format('input_format').optional().describe("The input format, when the URL's file name does not end with it."),
  filename: z.string().min(1).max(255).optional().describe('The name to give the source file (its extension names the input format).'),
  tag: z.string().max(255).optional().describe('A label kept on the job.'),
};

export interface ConvertToolOptions {
  /** How long to wait for the job to finish before answering with it still running. */
  waitMs: number;
}

export function registerConvert(server: McpServer, platform: PlatformClient, caller: McpCaller, options: ConvertToolOptions): void {
  server.registerTool(
    'convert',
    {
      title: 'Convert a file',
      description:
        "Converts the file at a public URL to another format with the person's Transmute account (uses its quota). Creates a job and waits a " +
        'short while for it, sending progress; answers with the download link when it finished in time, otherwise with the job id to pass to get_job.',
      inputSchema: Input,
      outputSchema: JobSummary.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) => {
      let job: Job;
      try {
        job = await platform.convert({
          accountId: caller.accountId,
          url: args.url,
          outputFormat: args.output_format.toLowerCase(),
          inputFormat: args.input_format?.toLowerCase(),
          filename: args.filename,
          tag: args.tag,
        });
      } catch (error) {
        return toolErrorOf(error);
      }
      const progressToken = extra._meta?.progressToken;
      const deadline = Date.now() + options.waitMs;
      let reported = -1;
      try {
        while (!isJobEnded(job.status) && Date.now() < deadline && !extra.signal.aborted) {
          const { progress, total } = jobProgress(job);
          if (progressToken !== undefined && progress !== reported) {
            reported = progress;
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress, total, message: `job ${job.id}: ${job.status}` },
            });
          }
          await sleep(POLL_INTERVAL_MS);
          job = await platform.job(job.id, caller.accountId);
        }
      } catch {
        // The job exists; a failed look-up while waiting is no reason to hide it. The summary says to poll.
      }
      const summary = summariseJob(job);
      return { structuredContent: summary, content: [{ type: 'text', text: `Job ${summary.job_id} is ${summary.status}. ${summary.next_step}` }] };
    },
  );
}
