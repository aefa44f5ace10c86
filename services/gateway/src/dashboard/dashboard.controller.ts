import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ServiceFailure } from '@transmute/contracts';
import { AccountQuota, AccountsService } from '../accounts';
import { WebhookDeliveriesClient } from '../events/webhook-deliveries.client';
import { JsonBody } from '../http/json-body.decorator';
import { renderJob } from '../jobs/job-view';
import { JobsClient } from '../jobs/jobs.client';
import { KeyLastUsed, KeysService } from '../keys';
import { usageView } from '../limits';
import { CsrfGuard, SignedIn, SignedInGuard, type SignedInPerson } from '../sessions';

const LABEL_MAX = 100;
const MAX_IP_RULES = 20;
const HISTORY_DEFAULT = 50;

interface KeyBody {
  label?: unknown;
  allowed_ips?: unknown;
}

function keyInput(body: unknown): { label: string; allowedIps: string[] } {
  const { label, allowed_ips: ips } = (typeof body === 'object' && body !== null ? body : {}) as KeyBody;
  if (label !== undefined && typeof label !== 'string') throw ServiceFailure.validation('label: must be text');
  if ((label ?? '').length > LABEL_MAX) throw ServiceFailure.validation(`label: at most ${LABEL_MAX} characters`);
  if (ips !== undefined && (!Array.isArray(ips) || ips.some((ip) => typeof ip !== 'string'))) {
    throw ServiceFailure.validation('allowed_ips: a list of IP addresses or CIDR ranges');
  }
  const allowedIps = ((ips as string[] | undefined) ?? []).map((ip) => ip.trim()).filter((ip) => ip !== '');
  if (allowedIps.length > MAX_IP_RULES) throw ServiceFailure.validation(`allowed_ips: at most ${MAX_IP_RULES} entries`);
  return { label: (label ?? '').trim(), allowedIps };
}

/**
 * The signed-in person's dashboard API (`/web/api/account/*`): API keys,
 * the webhook signing secret, usage, job history and webhook delivery logs.
 * Everything acts on the person's own account only; changes pass CsrfGuard.
 */
@Controller('web/api/account')
@UseGuards(SignedInGuard, CsrfGuard)
export class DashboardController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly apiKeys: KeysService,
    private readonly lastUsed: KeyLastUsed,
    private readonly quota: AccountQuota,
    private readonly jobs: JobsClient,
    private readonly webhookDeliveries: WebhookDeliveriesClient,
  ) {}

  @Get('keys')
  async keys(@SignedIn() person: SignedInPerson, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const keys = await this.apiKeys.listKeys(person.accountId);
    const used = await Promise.all(keys.map((key) => this.lastUsed.of(key.prefix)));
    return {
      status: 'success',
      keys: keys.map((key, index) => ({
        prefix: key.prefix,
        label: key.label,
        allowed_ips: key.allowedIps,
        created_at: key.createdAt,
        last_used_at: used[index] ? new Date(used[index]).toISOString() : null,
      })),
    };
  }

  /** The full key is in this answer only. */
  @Post('keys')
  @HttpCode(201)
  async createKey(@SignedIn() person: SignedInPerson, @JsonBody() body: unknown, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const created = await this.apiKeys.createKey(person.accountId, keyInput(body));
    return {
      status: 'success',
      key: created.key,
      prefix: created.view.prefix,
      label: created.view.label,
      allowed_ips: created.view.allowedIps,
      created_at: created.view.createdAt,
    };
  }

  /** Effective at once on every replica: keys are looked up on every request, never cached. */
  @Delete('keys/:prefix')
  @HttpCode(200)
  async deleteKey(@SignedIn() person: SignedInPerson, @Param('prefix') prefix: string) {
    const key = /^[a-f0-9]{12}$/.test(prefix) ? await this.apiKeys.findKey(prefix) : null;
    // Another account's key is as absent as a key that never was.
    if (!key || key.accountId !== person.accountId) throw ServiceFailure.notFound('no such key');
    await this.apiKeys.deleteKey(prefix);
    await this.lastUsed.forget(prefix).catch(() => undefined);
    return { status: 'success', deleted: prefix };
  }

  @Get('signing-secret')
  async signingSecret(@SignedIn() person: SignedInPerson, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return { status: 'success', signing_secret: await this.accounts.signingSecret(person.accountId) };
  }

  @Post('signing-secret/rotate')
  @HttpCode(200)
  async rotateSigningSecret(@SignedIn() person: SignedInPerson, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return { status: 'success', signing_secret: await this.accounts.rotateSigningSecret(person.accountId) };
  }

  @Get('usage')
  async usage(@SignedIn() person: SignedInPerson, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return { status: 'success', usage: usageView(await this.quota.counters(person.accountId)) };
  }

  @Get('jobs')
  async history(@SignedIn() person: SignedInPerson, @Query('limit') limit: string | undefined) {
    const wanted = Math.min(200, Math.max(1, Number(limit) || HISTORY_DEFAULT));
    const jobs = await this.jobs.list(person.accountId, wanted);
    return { status: 'success', jobs: jobs.map(renderJob) };
  }

  @Get('jobs/:jobId/webhooks')
  async deliveries(@SignedIn() person: SignedInPerson, @Param('jobId') jobId: string) {
    return { status: 'success', deliveries: await this.webhookDeliveries.list(jobId, person.accountId) };
  }
}
