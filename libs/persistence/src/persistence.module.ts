import { type DynamicModule, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { InjectConnection, MongooseModule } from '@nestjs/mongoose';
import { type Connection, ConnectionStates } from 'mongoose';
import { z } from 'zod';
import { ReadinessRegistry, envVar } from '@transmute/service-kit';

export function mongoConfig() {
  return {
    mongoUri: envVar(
      'TRANSMUTE_MONGODB_URI',
      z
        .string()
        .regex(/^mongodb(\+srv)?:\/\/\S+$/, { message: 'expected mongodb://host:port/database' })
        .default('mongodb://127.0.0.1:27017/transmute'),
      'MongoDB (or FerretDB) connection string, database name included.',
      { secret: true },
    ),
  };
}

@Injectable()
class MongoReadiness implements OnModuleInit {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('mongodb', async () => {
      if (this.connection.readyState !== ConnectionStates.connected || !this.connection.db) return false;
      await this.connection.db.admin().ping();
      return true;
    });
  }
}

/**
 * How every service connects. A store that restarts is read again within a
 * second of listening, with the driver's own reconnection (it re-checks the
 * server as soon as an operation fails): test/store-restart.int-spec.ts
 * measures it, busy and idle, so a change here that slows it fails there.
 */
export const MONGO_CONNECTION_OPTIONS = {
  serverSelectionTimeoutMS: 5_000,
  // Index builds are issued by each schema at start-up; cheap and idempotent.
  autoIndex: true,
} as const;

/**
 * The owning service's MongoDB connection. Queries stay within what FerretDB
 * serves: no transactions, no change streams, no positional array updates.
 */
@Module({})
export class PersistenceModule {
  static forRoot(uri: string): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [MongooseModule.forRoot(uri, MONGO_CONNECTION_OPTIONS)],
      providers: [MongoReadiness],
    };
  }
}
