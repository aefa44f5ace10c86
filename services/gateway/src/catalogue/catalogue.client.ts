import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import {
  type ConversionOption,
  FormatsReplySchema,
  FormatsRequestSchema,
  OptionsReplySchema,
  OptionsRequestSchema,
  RouteReplySchema,
  RouteRequestSchema,
  Subjects,
} from '@transmute/contracts';
import { RpcClient, type RpcRequestOptions } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { GatewayConfig } from '../config';

/** `catalogue.formats` / `catalogue.options` request/reply; the catalogue index is the one source of pairs. */
@Injectable()
export class CatalogueClient {
  private readonly requestOptions: RpcRequestOptions;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) config: GatewayConfig,
  ) {
    this.requestOptions = { timeoutMs: config.rpcTimeoutMs, unavailable: 'the catalogue is unavailable; try again shortly' };
  }

  async formats(inputFormat: string): Promise<string[]> {
    const request = create(FormatsRequestSchema, { inputFormat });
    const list = await this.rpc.request(Subjects.catalogueFormats, FormatsRequestSchema, request, FormatsReplySchema, this.requestOptions);
    return list.formats;
  }

  async options(inputFormat: string, outputFormat: string): Promise<ConversionOption[]> {
    const request = create(OptionsRequestSchema, { inputFormat, outputFormat });
    const list = await this.rpc.request(Subjects.catalogueOptions, OptionsRequestSchema, request, OptionsReplySchema, this.requestOptions);
    return list.options;
  }

  /** The family converting each pair ("" when none runs it). */
  async families(inputFormat: string, outputFormats: string[]): Promise<Map<string, string>> {
    const request = create(RouteRequestSchema, { pairs: outputFormats.map((outputFormat) => ({ inputFormat, outputFormat })) });
    const list = await this.rpc.request(Subjects.catalogueRoute, RouteRequestSchema, request, RouteReplySchema, this.requestOptions);
    return new Map(list.routes.map((route) => [route.outputFormat, route.family]));
  }
}
