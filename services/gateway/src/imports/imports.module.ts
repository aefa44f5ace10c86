import { Module } from '@nestjs/common';
import { ImportsController } from './imports.controller';
import { ImportsStore } from './imports.store';
import { UploadTokenOrKeyGuard } from './upload-token.guard';

/** `/v1/imports`: imports and their proxy upload route. Exports the store for import_id jobs. */
@Module({
  controllers: [ImportsController],
  providers: [ImportsStore, UploadTokenOrKeyGuard],
  exports: [ImportsStore],
})
export class ImportsModule {}
