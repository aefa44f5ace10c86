/** The people room's port. */
export { PeopleAdminModule, PeopleModule } from './people.module';
export { PeopleService } from './people.service';
