import { Controller, Get, Inject, Param, Redirect } from '@nestjs/common';
import { ServiceFailure } from '@transmute/contracts';
import { DownloadTokens, STORAGE, type Storage } from '@transmute/storage';

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
    @Inject(STORAGE) private readonly storage: Storage,
  ) {}

  @Get(':token')
  @Redirect()
  async download(@Param('token') token: string): Promise<{ url: string; statusCode: number }> {
    const grant = this.tokens.verify(token);
    // Forged, expired and deleted look the same to the client.
    if (!grant || !(await this.storage.stat(grant.key))) throw ServiceFailure.notFound('no such file');
    const url = await this.storage.presignDownload(grant.key, {
      filename: grant.filename,
      expiresInSeconds: DOWNLOAD_REDIRECT_TTL_SECONDS,
    });
    return { url, statusCode: 302 };
  }
}
