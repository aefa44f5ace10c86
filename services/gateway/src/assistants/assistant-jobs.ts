import { Injectable } from '@nestjs/common';
import type { AssistantConvertRequest, Job } from '@transmute/contracts';
import { AccountQuota, AccountsService } from '../accounts';
import { principalOf } from '../auth';
import { parseCreateJobBody } from '../jobs/create-job-request.parser';
import { JobsClient } from '../jobs/jobs.client';

/** Task names of the job the `convert` tool creates; get_job shows them. */
export const ASSISTANT_TASKS = { import: 'import', convert: 'convert', export: 'export' } as const;

/**
 * `accounts.mcp.convert`: the MCP `convert` tool's job, built as the REST
 * body import/url -> convert -> export/url and passed through the very same
 * parser, quota admission and orchestrator call as POST /v1/process/jobs.
 * The public-address rule is the importer's, as for every import/url.
 * Then complete-upload, as a REST client would call next.
 */
@Injectable()
export class AssistantJobs {
  constructor(
    private readonly accounts: AccountsService,
    private readonly quota: AccountQuota,
    private readonly jobs: JobsClient,
  ) {}

  async convert(input: AssistantConvertRequest): Promise<Job> {
    const account = await this.accounts.account(input.accountId);
    const plan = this.accounts.planOf(account);
    const body = {
      tag: input.tag,
      tasks: {
        [ASSISTANT_TASKS.import]: { operation: 'import/url', url: input.url, ...(input.filename && { filename: input.filename }) },
        [ASSISTANT_TASKS.convert]: {
          operation: 'convert',
          input: ASSISTANT_TASKS.import,
          output_format: input.outputFormat,
          ...(input.inputFormat && { input_format: input.inputFormat }),
        },
        [ASSISTANT_TASKS.export]: { operation: 'export/url', input: [ASSISTANT_TASKS.convert] },
      },
    };
    const { request } = parseCreateJobBody(body, { accountId: account._id, convertAllowance: plan.convertAllowance });
    const created = await this.quota.admitJob(principalOf(account._id, 'mcp', plan), request, () => this.jobs.create(request));
    // A job that only fetches waits for complete-upload like every job (spec); the tool starts it at once.
    return this.jobs.completeUpload(created.id, account._id);
  }
}
