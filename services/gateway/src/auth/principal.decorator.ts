import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { type AuthenticatedRequest, PRINCIPAL } from './api-key.guard';
import type { Principal } from './principal';

/** The caller's principal; undefined only on routes that let some requests through without a key. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined => context.switchToHttp().getRequest<AuthenticatedRequest>()[PRINCIPAL],
);
