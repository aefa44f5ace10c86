import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { create, type JsonValue } from '@bufbuild/protobuf';
import {
  type ConversionOption,
  type FormatList,
  FormatListSchema,
  type FormatsRequest,
  FormatsReplySchema,
  FormatsRequestSchema,
  type OptionList,
  OptionListSchema,
  type OptionsRequest,
  OptionsReplySchema,
  OptionsRequestSchema,
  RouteReplySchema,
  RouteRequestSchema,
  ServiceFailure,
  Subjects,
} from '@transmute/contracts';
import { RpcHandler, decodeRpc, encodeRpc } from '@transmute/messaging';
import { ManifestStore } from './manifest-store';

/** `catalogue.*` request/reply. Formats arrive lowercase; the gateway validates their shape. */
@Controller()
export class CatalogueRpcController {
  constructor(private readonly store: ManifestStore) {}

  @RpcHandler(Subjects.catalogueFormats, FormatsRequestSchema, FormatsReplySchema)
  formats({ inputFormat }: FormatsRequest): FormatList {
    const index = this.store.index;
    const formats = inputFormat ? index.targets(inputFormat) : index.inputs();
    if (!formats) throw ServiceFailure.notFound(`no conversion from ${inputFormat} is available`);
    return create(FormatListSchema, { formats });
  }

  @RpcHandler(Subjects.catalogueOptions, OptionsRequestSchema, OptionsReplySchema)
  options({ inputFormat, outputFormat }: OptionsRequest): OptionList {
    const options: ConversionOption[] | null = this.store.index.options(inputFormat, outputFormat);
    if (!options) throw ServiceFailure.notFound(`no conversion from ${inputFormat} to ${outputFormat} is available`);
    return create(OptionListSchema, { options });
  }

  /**
   * RouteReply predates the `oneof outcome` rule and its only caller is the
   * job-orchestrator's CatalogueClient; it moves to @RpcHandler with that client.
   */
  @MessagePattern(Subjects.catalogueRoute)
  route(@Payload() payload: unknown): JsonValue {
    const { pairs } = decodeRpc(RouteRequestSchema, payload);
    const index = this.store.index;
    const routes = pairs.map(({ inputFormat, outputFormat }) => ({ inputFormat, outputFormat, family: index.family(inputFormat, outputFormat) }));
    return encodeRpc(RouteReplySchema, create(RouteReplySchema, { routes }));
  }
}
