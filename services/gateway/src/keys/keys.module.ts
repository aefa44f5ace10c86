import { type DynamicModule, Global, Module } from '@nestjs/common';
import { ApiKeyAuthenticator } from '../auth';
import { DevKeyBootstrap, DevKeySeeder } from './dev-key-bootstrap';
import { KeyLastUsed } from './key-last-used';
import { KeyRepository } from './key.repository';
import { keyModels } from './key.schema';
import { KeysApiKeyAuthenticator } from './keys-api-key.authenticator';
import { KeysService } from './keys.service';

const KEYS = [KeysService, KeyLastUsed, DevKeySeeder];

/**
 * API keys: their hashes (`api_keys`, the only reader), when each was last
 * used (KV `account_key_last_used`), the authenticator the guard asks through
 * the auth room's ApiKeyAuthenticator port, and the development key.
 */
@Global()
@Module({})
export class KeysModule {
  /** In the gateway: also the authenticator and the dev-key bootstrap at start. */
  static forRoot(): DynamicModule {
    return {
      module: KeysModule,
      imports: [keyModels],
      providers: [KeyRepository, ...KEYS, { provide: ApiKeyAuthenticator, useClass: KeysApiKeyAuthenticator }, DevKeyBootstrap],
      exports: [...KEYS, ApiKeyAuthenticator],
    };
  }

  /** In the admin CLI: managing keys, no authentication. */
  static forAdmin(): DynamicModule {
    return { module: KeysModule, imports: [keyModels], providers: [KeyRepository, ...KEYS], exports: KEYS };
  }
}
