import { Module } from '@nestjs/common';
import { JobsClient } from '../jobs/jobs.client';
import { OAuthTokensModule } from '../oauth';
import { AssistantCallers } from './assistant-callers';
import { AssistantJobs } from './assistant-jobs';
import { AssistantsRpcController } from './assistants.rpc.controller';

/** What the MCP server asks of the gateway (accounts.mcp.*): callers and the convert tool's jobs. */
@Module({
  imports: [OAuthTokensModule],
  controllers: [AssistantsRpcController],
  providers: [AssistantCallers, AssistantJobs, JobsClient],
})
export class AssistantsModule {}
