import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { z } from 'zod';
import { FormatsQuery, OptionsQuery } from '@transmute/api-schema';
import type { FormatList, OptionList } from '@transmute/api-schema';
import { ErrorCode, ServiceFailure, normaliseFormatName } from '@transmute/contracts';
import { ApiKeyGuard } from '../auth';
import { validationMessage } from '../http/validation-message';
import { CatalogueClient } from './catalogue.client';
import { renderOption } from './option-view';

/** Query parameters checked by the same schemas the OpenAPI document shows; a bad one is 400. */
function query<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, validationMessage(parsed.error));
  return parsed.data;
}

/** `GET /v1/formats` and `GET /v1/options`, answered by the catalogue service. Formats are echoed lowercase. */
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueClient) {}

  @Get('formats')
  async formats(@Query() raw: unknown): Promise<z.infer<typeof FormatList>> {
    const given = query(FormatsQuery, raw).input_format;
    const inputFormat = given === undefined ? undefined : normaliseFormatName(given);
    const formats = await this.catalogue.formats(inputFormat ?? '');
    return { status: 'success', count: formats.length, ...(inputFormat !== undefined && { input_format: inputFormat }), formats };
  }

  @Get('options')
  async options(@Query() raw: unknown): Promise<z.infer<typeof OptionList>> {
    const parsed = query(OptionsQuery, raw);
    const inputFormat = normaliseFormatName(parsed.input_format);
    const outputFormat = normaliseFormatName(parsed.output_format);
    const options = (await this.catalogue.options(inputFormat, outputFormat)).map(renderOption);
    return { status: 'success', input_format: inputFormat, output_format: outputFormat, count: options.length, options };
  }
}
