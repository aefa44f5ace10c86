import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, ServiceFailure, asServiceFailure, credentialOf } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { McpConfig } from '../config';
import { PlatformClient } from '../platform/platform-client';
import type { McpCaller } from '../tools/caller';
import { buildMcpServer } from '../tools/mcp-server.factory';
import { bearerChallenge } from './credentials';
import { protectedResourceMetadata, protectedResourceMetadataUrl, rfc9728MetadataPath, SUPPORTED_SCOPES } from './protected-resource';

const CALLER = Symbol('mcp-caller');
type CallerRequest = Request & { [CALLER]?: McpCaller };

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.UNAVAILABLE]: 503,
};

/**
 * Streamable HTTP at the path of TRANSMUTE_MCP_PUBLIC_URL, stateless (one MCP
 * server per POST, any replica answers), behind bearer authentication that
 * asks the gateway on every request; and the protected-resource metadata.
 * Mounted on module init: after Nest's routes, before its not-found handler.
 */
@Injectable()
export class McpEndpoint implements OnModuleInit {
  private readonly logger = new Logger(McpEndpoint.name);
  private readonly metadataUrl: string;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly platform: PlatformClient,
    @Inject(SERVICE_CONFIG) private readonly config: McpConfig,
  ) {
    this.metadataUrl = protectedResourceMetadataUrl(config.mcpPublicUrl);
  }

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter.getInstance<Express>();
    const path = new URL(this.config.mcpPublicUrl).pathname.replace(/\/+$/, '') || '/';
    const metadata = metadataHandler(protectedResourceMetadata(this.config.mcpPublicUrl, this.config.publicUrl));
    app.use(new URL(this.metadataUrl).pathname, metadata);
    app.use(rfc9728MetadataPath(this.config.mcpPublicUrl), metadata);
    app.post(
      path,
      (req: Request, res: Response, next: NextFunction) => void this.authenticate(req, res, next),
      express.json({ limit: '1mb' }),
      (req: Request, res: Response) => void this.serve(req, res),
      // A body that is not JSON (or too large) is JSON-RPC's parse error, not express's HTML page.
      (error: { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
        res.status(error.status ?? 400).json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body must be one JSON-RPC message (at most 1 MB)' }, id: null });
      },
    );
    // Stateless: no server-initiated stream and no session to end.
    app.all(path, (_request: Request, res: Response) => {
      res.setHeader('Allow', 'POST');
      res.status(405).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless; send POST' }, id: null });
    });
  }

  private async authenticate(request: CallerRequest, response: Response, next: NextFunction): Promise<void> {
    const credential = credentialOf(request.headers);
    if (!credential) {
      response.setHeader('WWW-Authenticate', bearerChallenge(this.metadataUrl));
      return void response.status(401).json({ status: 'error', message: 'authentication required: an OAuth access token or an API key as a bearer token' });
    }
    let resetSeconds: number | undefined;
    try {
      const forwarded = request.headers['x-forwarded-for'];
      const caller = await this.platform.authenticate(credential, request.socket.remoteAddress ?? '', Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''));
      if (caller.rateLimit) {
        resetSeconds = caller.rateLimit.resetSeconds;
        response.setHeader('X-RateLimit-Limit', String(caller.rateLimit.limit));
        response.setHeader('X-RateLimit-Remaining', String(caller.rateLimit.remaining));
        response.setHeader('X-RateLimit-Reset', String(caller.rateLimit.resetSeconds));
      }
      if (!caller.allowed) {
        const limit = caller.rateLimit?.limit ?? 0;
        throw new ServiceFailure(ErrorCode.RATE_LIMITED, `rate limit of ${limit} requests per minute exceeded; retry after ${resetSeconds ?? 60} s`);
      }
      if (!caller.principal) throw new ServiceFailure(ErrorCode.INTERNAL, 'the account service answered a caller without a principal');
      const principal = caller.principal;
      if (principal.via === 'oauth' && !SUPPORTED_SCOPES.every((scope) => principal.scopes.includes(scope))) {
        response.setHeader(
          'WWW-Authenticate',
          `${bearerChallenge(this.metadataUrl, { code: 'insufficient_scope', description: 'the token lacks a scope' })}, scope="${SUPPORTED_SCOPES.join(' ')}"`,
        );
        return void response.status(403).json({ status: 'error', message: `the access token lacks scope ${SUPPORTED_SCOPES.join(' ')}` });
      }
      request[CALLER] = { accountId: principal.accountId, via: principal.via === 'oauth' ? 'oauth' : 'api_key', clientId: principal.clientId };
      next();
    } catch (error) {
      this.refuse(response, asServiceFailure(error), resetSeconds);
    }
  }

  private refuse(response: Response, failure: ServiceFailure, resetSeconds: number | undefined): void {
    const status = HTTP_STATUS[failure.code] ?? 500;
    if (status === 500) this.logger.error({ err: failure.cause ?? failure }, failure.message);
    if (status === 401) response.setHeader('WWW-Authenticate', bearerChallenge(this.metadataUrl, { code: 'invalid_token', description: failure.message }));
    const body: Record<string, unknown> = { status: 'error', message: status === 500 ? 'internal error' : failure.message };
    if (status === 429 && resetSeconds !== undefined) {
      response.setHeader('Retry-After', String(resetSeconds));
      body['retry_after'] = resetSeconds;
    }
    response.status(status).json(body);
  }

  private async serve(request: CallerRequest, response: Response): Promise<void> {
    try {
      const caller = request[CALLER];
      if (!caller) throw new Error('the MCP route ran without an authenticated caller');
      const server = buildMcpServer(this.platform, caller, { convertWaitMs: this.config.convertWaitMs });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, request.body);
    } catch (error) {
      this.logger.error({ err: error }, 'MCP request failed');
      if (!response.headersSent) response.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
    }
  }
}
