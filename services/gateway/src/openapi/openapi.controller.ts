import { Controller, Get, Inject } from '@nestjs/common';
import { openApiDocument } from '@transmute/api-schema';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { GatewayConfig } from '../config';

/** `GET /openapi.json`: the document built from the schemas the routes validate with. */
@Controller()
export class OpenApiController {
  constructor(@Inject(SERVICE_CONFIG) private readonly config: GatewayConfig) {}

  @Get('openapi.json')
  document(): unknown {
    return openApiDocument(this.config.publicUrl);
  }
}
