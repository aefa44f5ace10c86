import { Controller, Get, Inject, Param, Redirect } from '@nestjs/common';
import { ServiceFailure } from '@transmute/contracts';
import { DownloadTokens, STORAGE, type Storage } from '@transmute/storage';
import { AccountQuota } from '../accounts';

/** How long the storage link a download redirects to stays valid. */
export const DOWNLOAD_REDIRECT_TTL_SECONDS = 300;

/**
 * `GET /v1/download/:token`. The token is the credential (no API key): it was
 * minted by the service that produced the file and names the stored key.
 */
@Controller('v1/download')
export class DownloadsController {
  constructor(
    private readonly tokens: DownloadTokens,
    private readonly quota: AccountQuota,
    @Inject(STORAGE) private readonly storage: Storage,
  ) {}

  @Get(':token')
  @Redirect()
  async download(@Param('token') token: string): Promise<{ url: string; statusCode: number }> {
    const grant = this.tokens.verify(token);
    // Forged, expired and deleted look the same to the client.
    const stored = grant && (await this.storage.stat(grant.key));
    if (!grant || !stored) throw ServiceFailure.notFound('no such file');
    // The first download of each file is free; later ones are metered (402 when the allowance is spent).
    await this.quota.chargeDownload(grant.accountId, grant.key, stored.size);
    const url = await this.storage.presignDownload(grant.key, {
      filename: grant.filename,
      expiresInSeconds: DOWNLOAD_REDIRECT_TTL_SECONDS,
    });
    return { url, statusCode: 302 };
  }
}
