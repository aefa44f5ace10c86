import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import express, { type Express, type Request, type Response } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { ClientIpResolver } from '../http/client-ip.resolver';
import { CsrfTokens, Sessions } from '../sessions';
import type { OAuthSettings } from './oauth.config';
import { CONSENT_DECISION_PATH } from './consent-page';
import { OAuthGrants } from './oauth-grants';
import { authorizationServerMetadata, OAUTH_PATHS } from './oauth-metadata';
import { TransmuteOAuthProvider } from './oauth-provider';

/**
 * Mounts the SDK's OAuth handlers at /oauth/* and the RFC 8414 metadata, and
 * the consent form's answer. Mounted on module init: after Nest's routes,
 * before its not-found handler; the paths do not overlap any controller's.
 */
@Injectable()
export class OAuthEndpoints implements OnModuleInit {
  private readonly logger = new Logger(OAuthEndpoints.name);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly provider: TransmuteOAuthProvider,
    private readonly grants: OAuthGrants,
    private readonly sessions: Sessions,
    private readonly csrf: CsrfTokens,
    private readonly clientIps: ClientIpResolver,
    @Inject(SERVICE_CONFIG) private readonly config: OAuthSettings,
  ) {}

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter.getInstance<Express>();
    // The SDK's per-endpoint limits, counted per client address as the gateway sees it (trusted proxies).
    const rateLimit = { keyGenerator: (request: Request) => this.clientIps.of(request), validate: false } as const;
    app.use(OAUTH_PATHS.metadata, metadataHandler(authorizationServerMetadata(this.config.publicUrl)));
    app.use(OAUTH_PATHS.register, clientRegistrationHandler({ clientsStore: this.provider.clientsStore, rateLimit }));
    app.post(CONSENT_DECISION_PATH, express.urlencoded({ extended: false, limit: '16kb' }), (request: Request, response: Response) => {
      this.decide(request, response).catch((error: unknown) => {
        this.logger.error({ err: error }, 'consent decision failed');
        if (!response.headersSent) response.status(500).json({ status: 'error', message: 'internal error; try again' });
      });
    });
    app.use(OAUTH_PATHS.authorize, authorizationHandler({ provider: this.provider, rateLimit }));
    app.use(OAUTH_PATHS.token, tokenHandler({ provider: this.provider, rateLimit }));
    app.use(OAUTH_PATHS.revoke, revocationHandler({ provider: this.provider, rateLimit }));
  }

  /** The person's answer on the consent screen: back to the application with a code, or with access_denied. */
  private async decide(request: Request, response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    const person = await this.sessions.signedIn(request);
    if (!person) return void response.status(401).json({ status: 'error', message: 'sign in first, then start again from the application' });
    if (!this.csrf.formIsOwn(request)) {
      return void response.status(403).json({ status: 'error', message: "the form's CSRF token is missing or wrong; reload the consent page" });
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const consent = await this.grants.takePending(typeof body['consent'] === 'string' ? body['consent'] : '', person.personId);
    if (!consent) {
      return void response.status(400).json({ status: 'error', message: 'this consent page expired or was already answered; start again from the application' });
    }
    const target = new URL(consent.redirectUri);
    if (body['decision'] === 'allow') {
      target.searchParams.set('code', await this.grants.issueCode(consent));
    } else {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'the person denied access');
    }
    if (consent.state !== undefined) target.searchParams.set('state', consent.state);
    response.redirect(303, target.href);
  }
}
