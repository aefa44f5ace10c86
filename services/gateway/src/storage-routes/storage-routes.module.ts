import { Module } from '@nestjs/common';
import { FsStorage, STORAGE, type Storage } from '@transmute/storage';
import { StorageRoutesController } from './storage-routes.controller';

/** Mounted only with the fs driver: S3 and GCS serve their own signed URLs. */
@Module({
  controllers: [StorageRoutesController],
  providers: [
    {
      provide: FsStorage,
      inject: [STORAGE],
      useFactory: (storage: Storage) => {
        if (!(storage instanceof FsStorage)) throw new Error('the storage routes serve the fs driver only');
        return storage;
      },
    },
  ],
})
export class StorageRoutesModule {}
