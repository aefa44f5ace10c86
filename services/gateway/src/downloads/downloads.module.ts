import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { DownloadTokens } from '@transmute/storage';
import type { GatewayConfig } from '../config';
import { DownloadsController } from './downloads.controller';

/** Download links: token in, redirect to a short-lived storage URL out. */
@Module({
  controllers: [DownloadsController],
  providers: [
    {
      provide: DownloadTokens,
      inject: [SERVICE_CONFIG],
      useFactory: (config: GatewayConfig) => new DownloadTokens(config.downloadTokenKey),
    },
  ],
})
export class DownloadsModule {}
