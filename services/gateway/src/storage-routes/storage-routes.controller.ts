import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Controller, Get, HttpCode, Logger, Put, Req, Res } from '@nestjs/common';
import contentDisposition from 'content-disposition';
import type { Request, Response } from 'express';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { FS_STORAGE_ROUTE, FsStorage } from '@transmute/storage';
import { ByteLimit } from '../imports/byte-limit';
import { UploadCeiling, overRemainingQuota } from '../uploads/upload-ceiling';
import { assertSignedRequest, uploadAccountOf } from './storage-signature';

/** The stored key is everything after the route prefix, slashes included. */
const keyOf = (request: Request): string => request.path.slice(FS_STORAGE_ROUTE.length + 1);

/**
 * The fs driver's signed links, served by the gateway in place of S3: uploads
 * stream from the socket to disk and downloads from disk to the socket, so no
 * body is ever held in memory. Body parsing never runs on these routes.
 */
@Controller(FS_STORAGE_ROUTE)
export class StorageRoutesController {
  private readonly logger = new Logger(StorageRoutesController.name);

  constructor(
    private readonly storage: FsStorage,
    private readonly ceiling: UploadCeiling,
  ) {}

  @Put('*key')
  @HttpCode(200)
  async upload(@Req() request: Request): Promise<Record<string, never>> {
    assertSignedRequest(this.storage.signer, {
      method: 'PUT',
      path: request.path,
      query: request.query,
      contentType: request.headers['content-type'] ?? '',
    });
    const counter = await this.quotaCounter(request);
    try {
      if (counter) await bothSettled(pipeline(request, counter), this.storage.put(keyOf(request), counter));
      else await this.storage.put(keyOf(request), request);
    } catch (error) {
      // Past the ceiling: the partial file is gone (the driver writes aside), and the client is told why.
      if (error instanceof ServiceFailure && error.code === ErrorCode.PAYLOAD_TOO_LARGE) throw error;
      // The client hung up mid-body: nothing was stored, and it was not our fault.
      if (!request.complete) throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'the upload ended before its last byte', false, { cause: error });
      throw error;
    }
    return {};
  }

  /**
   * A link made for an account is held to what its quota has left now, when
   * the bytes arrive: refused on Content-Length before reading, and counted
   * while streaming (a chunked body has no length to trust).
   */
  private async quotaCounter(request: Request): Promise<ByteLimit | null> {
    const account = uploadAccountOf(request.query);
    if (!account) return null;
    const remaining = await this.ceiling.remainingBytes(account);
    if (Number(request.headers['content-length'] ?? '0') > remaining) throw overRemainingQuota(remaining);
    return new ByteLimit(remaining, overRemainingQuota);
  }

  @Get('*key')
  async download(@Req() request: Request, @Res() response: Response): Promise<void> {
    assertSignedRequest(this.storage.signer, { method: 'GET', path: request.path, query: request.query, contentType: '' });
    const key = keyOf(request);
    const stored = await this.storage.stat(key);
    if (!stored) throw ServiceFailure.notFound('no such file');
    const filename = typeof request.query['filename'] === 'string' && request.query['filename'] ? request.query['filename'] : basename(key);
    response.setHeader('Content-Type', 'application/octet-stream');
    response.setHeader('Content-Length', String(stored.size));
    response.setHeader('Content-Disposition', contentDisposition(filename));
    try {
      await pipeline(await this.storage.get(key), response);
    } catch (error) {
      // Headers are gone; pipeline already cut the connection. Usually the client left early.
      this.logger.warn({ err: error }, `download of ${key} ended early`);
    }
  }
}

/** Waits for both (the driver removes its partial file before it settles), then fails with the first failure. */
async function bothSettled(...work: [Promise<unknown>, Promise<unknown>]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}
