import { Global, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { WebPrincipalSource } from '../auth/web-principal-source';
import { JsonBodyMiddleware } from '../http/json-body.middleware';
import { WebhookDeliveriesClient } from '../events/webhook-deliveries.client';
import { JobsClient } from '../jobs/jobs.client';
import { CookiePolicy } from '../sessions/cookie-policy';
import { CsrfGuard, CsrfTokens } from '../sessions/csrf';
import { DashboardController } from '../dashboard/dashboard.controller';
import { PasswordHasher } from './password-hasher';
import { PeopleController } from './people.controller';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';
import { PeopleSessions } from '../sessions/sessions';
import { personModels } from './person.schema';
import { SessionStore } from '../sessions/session-store';
import { SignInThrottle } from '../limits/sign-in-throttle';
import { SignedInGuard } from '../sessions/signed-in.guard';
import { WebPrincipals } from '../sessions/web-principals';

/**
 * People (website accounts): sign-up, sign-in, sessions, CSRF and the
 * dashboard API. Global, so any gateway controller can use PeopleSessions,
 * CsrfGuard and CsrfTokens, and ApiKeyGuard finds the website's principals.
 * Needs the AccountsModule (global) and the RPC client.
 */
@Global()
@Module({
  imports: [personModels],
  controllers: [PeopleController, DashboardController],
  providers: [
    CookiePolicy,
    CsrfTokens,
    CsrfGuard,
    PasswordHasher,
    PeopleRepository,
    PeopleService,
    PeopleSessions,
    SessionStore,
    SignInThrottle,
    SignedInGuard,
    JobsClient,
    WebhookDeliveriesClient,
    { provide: WebPrincipalSource, useClass: WebPrincipals },
  ],
  exports: [PeopleSessions, CsrfTokens, CsrfGuard, SignedInGuard, CookiePolicy, WebPrincipalSource, PeopleService],
})
export class PeopleModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes(PeopleController, DashboardController);
  }
}

/** The part of the module the admin CLI needs: listing people (no HTTP, no sessions). */
@Module({
  imports: [personModels],
  providers: [PeopleRepository, PeopleService, PasswordHasher, SignInThrottle],
  exports: [PeopleService],
})
export class PeopleAdminModule {}
