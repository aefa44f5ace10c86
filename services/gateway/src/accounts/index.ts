/** The accounts room's port. */
export { AccountsModule } from './accounts.module';
export { type AccountView, AccountsService, accountView } from './accounts.service';
export type { AccountRecord } from './account.repository';
export { AccountQuota, convertTaskCount } from './account-quota';
