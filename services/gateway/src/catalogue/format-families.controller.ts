import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { FormatsQuery } from '@transmute/api-schema';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { ApiKeyGuard } from '../auth';
import { validationMessage } from '../http/validation-message';
import { CatalogueClient } from './catalogue.client';

/**
 * `GET /web/api/format-families?input_format=png`: which converter family
 * turns the input into each of its targets, so the website can group the
 * target formats of `/v1/formats` by family (the public API has no family).
 */
@Controller('web/api')
@UseGuards(ApiKeyGuard)
export class FormatFamiliesController {
  constructor(private readonly catalogue: CatalogueClient) {}

  @Get('format-families')
  async families(@Query() raw: unknown) {
    const parsed = FormatsQuery.safeParse(raw);
    if (!parsed.success) throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, validationMessage(parsed.error));
    const inputFormat = parsed.data.input_format?.toLowerCase();
    if (!inputFormat) throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'input_format is required');
    const targets = await this.catalogue.formats(inputFormat);
    const families = targets.length > 0 ? await this.catalogue.families(inputFormat, targets) : new Map<string, string>();
    return { status: 'success', input_format: inputFormat, families: Object.fromEntries(targets.map((format) => [format, families.get(format) || 'other'])) };
  }
}
