import { Global, Module } from '@nestjs/common';
import { ClientIpResolver } from './client-ip.resolver';

/** The client's address, for every room that needs it (keys' IP rules, anonymous use, OAuth's limits, the MCP callers). */
@Global()
@Module({ providers: [ClientIpResolver], exports: [ClientIpResolver] })
export class ClientIpModule {}
