import { Controller, Get } from '@nestjs/common';
import { openApiDocument } from '@transmute/api-schema';

/** `GET /openapi.json`: the document built from the schemas the routes validate with. */
@Controller()
export class OpenApiController {
  @Get('openapi.json')
  document(): unknown {
    return openApiDocument();
  }
}
