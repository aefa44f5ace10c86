/** The keys room's port. */
export { KeysModule } from './keys.module';
export { type ApiKeyView, KeysService, keyView } from './keys.service';
export { KeyLastUsed } from './key-last-used';
export { DEV_ACCOUNT_ID, DevKeySeeder } from './dev-key-bootstrap';
export { apiKeyPrefix, hashApiKey } from './api-key-secret';
