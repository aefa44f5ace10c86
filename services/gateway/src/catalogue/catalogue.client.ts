import { Inject, Injectable } from '@nestjs/common';
import { create, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import {
  type ConversionOption,
  ErrorCode,
  FormatsReplySchema,
  FormatsRequestSchema,
  OptionsReplySchema,
  OptionsRequestSchema,
  RouteReplySchema,
  RouteRequestSchema,
  type ServiceError,
  ServiceFailure,
  Subjects,
} from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { GatewayConfig } from '../config';

/** `catalogue.formats` / `catalogue.options` request/reply; the catalogue index is the one source of pairs. */
@Injectable()
export class CatalogueClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async formats(inputFormat: string): Promise<string[]> {
    const reply = await this.call(Subjects.catalogueFormats, FormatsRequestSchema, create(FormatsRequestSchema, { inputFormat }), FormatsReplySchema);
    throwIfError(reply.error);
    return reply.formats;
  }

  async options(inputFormat: string, outputFormat: string): Promise<ConversionOption[]> {
    const request = create(OptionsRequestSchema, { inputFormat, outputFormat });
    const reply = await this.call(Subjects.catalogueOptions, OptionsRequestSchema, request, OptionsReplySchema);
    throwIfError(reply.error);
    return reply.options;
  }

  /** The family converting each pair ("" when none runs it). */
  async families(inputFormat: string, outputFormats: string[]): Promise<Map<string, string>> {
    const request = create(RouteRequestSchema, { pairs: outputFormats.map((outputFormat) => ({ inputFormat, outputFormat })) });
    const reply = await this.call(Subjects.catalogueRoute, RouteRequestSchema, request, RouteReplySchema);
    return new Map(reply.routes.map((route) => [route.outputFormat, route.family]));
  }

  private async call<D extends DescMessage, R extends DescMessage>(subject: string, schema: D, request: MessageShape<D>, replySchema: R): Promise<MessageShape<R>> {
    try {
      return await this.rpc.call(subject, schema, request, replySchema, this.config.rpcTimeoutMs);
    } catch (error) {
      if (error instanceof ServiceFailure && error.code === ErrorCode.UNAVAILABLE) {
        throw ServiceFailure.unavailable('the catalogue is unavailable; try again shortly', error);
      }
      throw new ServiceFailure(ErrorCode.INTERNAL, `${subject} answered with a malformed reply`, false, { cause: error });
    }
  }
}

function throwIfError(error: ServiceError | undefined): void {
  if (error && error.code !== ErrorCode.UNSPECIFIED) throw ServiceFailure.fromMessage(error);
}
