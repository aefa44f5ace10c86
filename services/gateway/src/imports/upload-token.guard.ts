import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyGuard } from '../auth';

/**
 * The proxy upload route takes the import's one-use token (checked by the
 * route, which knows the import) or, without one, the API key.
 */
@Injectable()
export class UploadTokenOrKeyGuard implements CanActivate {
  constructor(private readonly apiKeys: ApiKeyGuard) {}

  canActivate(context: ExecutionContext): Promise<boolean> | boolean {
    const { token } = context.switchToHttp().getRequest<Request>().query;
    if (typeof token === 'string' && token !== '') return true;
    return this.apiKeys.canActivate(context);
  }
}
