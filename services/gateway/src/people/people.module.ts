import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { JsonBodyMiddleware } from '../http/json-body.middleware';
import { PasswordHasher } from './password-hasher';
import { PeopleController } from './people.controller';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';
import { personModels } from './person.schema';

/**
 * People (the website's accounts): sign-up, sign-in and sign-out (opening
 * and ending sessions through the sessions room), and who is signed in. The
 * only reader of the `people` collection.
 */
@Module({
  imports: [personModels],
  controllers: [PeopleController],
  providers: [PasswordHasher, PeopleRepository, PeopleService],
  exports: [PeopleService],
})
export class PeopleModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes(PeopleController);
  }
}

/** What the admin CLI needs: listing people (no HTTP, no sessions). */
@Module({
  imports: [personModels],
  providers: [PeopleRepository, PeopleService, PasswordHasher],
  exports: [PeopleService],
})
export class PeopleAdminModule {}
