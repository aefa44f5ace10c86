import { Controller, Delete, Get, HttpCode, Param, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ServiceFailure } from '@transmute/contracts';
import { CsrfGuard, SignedIn, SignedInGuard, type SignedInPerson } from '../sessions';
import { OAuthGrants } from './oauth-grants';
import { SCOPE_DESCRIPTIONS } from './oauth-records';

const CLIENT_ID = /^[0-9a-f-]{36}$/;

/**
 * The dashboard's "Connected applications": the OAuth clients the signed-in
 * person authorised, and disconnecting one (every token it holds stops
 * working at once: verification reads the grant on every MCP request).
 */
@Controller('web/api/account/connected-apps')
@UseGuards(SignedInGuard, CsrfGuard)
export class ConnectedAppsController {
  constructor(private readonly grants: OAuthGrants) {}

  @Get()
  async list(@SignedIn() person: SignedInPerson, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const apps = await this.grants.connectedApplications(person.personId);
    return {
      status: 'success',
      count: apps.length,
      applications: apps.map((app) => ({
        client_id: app.clientId,
        name: app.clientName,
        scopes: app.scopes,
        can: app.scopes.map((scope) => SCOPE_DESCRIPTIONS[scope] ?? scope),
        authorised_at: app.authorisedAt,
        last_used_at: app.lastUsedAt,
      })),
    };
  }

  @Delete(':clientId')
  @HttpCode(200)
  async disconnect(@SignedIn() person: SignedInPerson, @Param('clientId') clientId: string) {
    if (!CLIENT_ID.test(clientId) || !(await this.grants.disconnect(person.personId, clientId))) {
      throw ServiceFailure.notFound(`no connected application ${clientId} on this account`);
    }
    return { status: 'success', client_id: clientId };
  }
}
