import { pipeline } from 'node:stream/promises';
import { Controller, HttpCode, Inject, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { type Import, ImportContentQuery, ID_PATTERN } from '@transmute/api-schema';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage } from '@transmute/storage';
import { ApiKeyGuard, CurrentPrincipal, type Principal } from '../auth';
import type { GatewayConfig } from '../config';
import { validationMessage } from '../http/validation-message';
import { UploadCeiling, overRemainingQuota } from '../uploads/upload-ceiling';
import { ByteLimit, tooLarge } from './byte-limit';
import { ImportsStore } from './imports.store';
import { UploadTokenOrKeyGuard } from './upload-token.guard';

/** The content type the direct route's signature is made for. */
export const IMPORT_CONTENT_TYPE = 'application/octet-stream';

interface ImportReceived {
  status: 'success';
  message: string;
}

/** `/v1/imports`: a place to send a file to before the job that converts it exists. */
@Controller('v1/imports')
export class ImportsController {
  constructor(
    private readonly imports: ImportsStore,
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
    private readonly uploadCeiling: UploadCeiling,
  ) {}

  @Post()
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  async create(@CurrentPrincipal() principal: Principal | undefined): Promise<Import> {
    if (!principal) throw new Error('ApiKeyGuard let a request through without a principal');
    const { record, token } = await this.imports.create(principal.accountId);
    const direct = await this.storage.presignUpload(record.key, {
      contentType: IMPORT_CONTENT_TYPE,
      expiresInSeconds: this.config.uploadLinkTtlSeconds,
      ceiling: { accountId: principal.accountId, maxBytes: await this.uploadCeiling.remainingBytes(principal.accountId) },
    });
    return {
      id: record.id,
      upload: {
        url: direct.url,
        method: direct.method,
        headers: direct.headers,
        parameters: direct.parameters,
        expiresAt: direct.expiresAt.toISOString(),
        proxy_url: `${this.config.publicUrl}/v1/imports/${record.id}/content`,
        token,
      },
    };
  }

  @Put(':importId/content')
  @HttpCode(200)
  @UseGuards(UploadTokenOrKeyGuard)
  put(@Param('importId') importId: string, @Req() request: Request, @CurrentPrincipal() principal: Principal | undefined): Promise<ImportReceived> {
    return this.receive(importId, request, principal);
  }

  @Post(':importId/content')
  @HttpCode(200)
  @UseGuards(UploadTokenOrKeyGuard)
  post(@Param('importId') importId: string, @Req() request: Request, @CurrentPrincipal() principal: Principal | undefined): Promise<ImportReceived> {
    return this.receive(importId, request, principal);
  }

  /** Streams the raw body to storage; never holds the whole file. */
  private async receive(importId: string, request: Request, principal: Principal | undefined): Promise<ImportReceived> {
    const query = ImportContentQuery.safeParse(request.query);
    if (!query.success) throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, validationMessage(query.error));
    const record = ID_PATTERN.test(importId) ? await this.imports.find(importId) : null;
    // Another account's import is as absent as one that never was.
    if (!record || (principal && record.accountId !== principal.accountId)) throw ServiceFailure.notFound('no such import');
    if (!principal) {
      const check = await this.imports.spendToken(importId, query.data.token ?? '');
      if (check === 'used') throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'this upload token has already been used');
      if (check === 'wrong') throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'wrong upload token');
    }
    // The import ceiling, or what the owner's quota has left if that is less: the file would not convert anyway.
    const remaining = await this.uploadCeiling.remainingBytes(record.accountId);
    const limit = Math.min(this.config.importMaxBytes, remaining);
    const failure = remaining < this.config.importMaxBytes ? overRemainingQuota : tooLarge;
    const announced = Number(request.headers['content-length'] ?? '0');
    if (announced > limit) throw failure(limit);
    const counter = new ByteLimit(limit, failure);
    try {
      const stored = await Promise.all([pipeline(request, counter), this.storage.put(record.key, counter)]);
      if (query.data.filename) await this.imports.setFilename(importId, query.data.filename);
      return { status: 'success', message: `received ${stored[1].size} bytes` };
    } catch (error) {
      // Nothing half-written stays behind to be converted later.
      await this.storage.delete(record.key).catch(() => undefined);
      if (error instanceof ServiceFailure) throw error;
      if (counter.bytes > limit) throw failure(limit);
      throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'the upload ended before its body was complete', false, { cause: error });
    }
  }
}
