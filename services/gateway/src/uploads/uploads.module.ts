import { Global, Module } from '@nestjs/common';
import { UploadCeiling } from './upload-ceiling';

/** Upload ceilings: what the accounts module says is left, for the routes that take bytes (storage, imports, jobs). */
@Global()
@Module({ providers: [UploadCeiling], exports: [UploadCeiling] })
export class UploadsModule {}
