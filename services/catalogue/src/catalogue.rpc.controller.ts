import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { create, type JsonValue } from '@bufbuild/protobuf';
import {
  FormatsReplySchema,
  FormatsRequestSchema,
  OptionsReplySchema,
  OptionsRequestSchema,
  RouteReplySchema,
  RouteRequestSchema,
  ServiceFailure,
  Subjects,
} from '@transmute/contracts';
import { decodeRpc, encodeRpc } from '@transmute/messaging';
import { ManifestStore } from './manifest-store';

/** `catalogue.*` request/reply. Formats arrive lowercase; the gateway validates their shape. */
@Controller()
export class CatalogueRpcController {
  constructor(private readonly store: ManifestStore) {}

  @MessagePattern(Subjects.catalogueFormats)
  formats(@Payload() payload: unknown): JsonValue {
    const { inputFormat } = decodeRpc(FormatsRequestSchema, payload);
    const index = this.store.index;
    if (!inputFormat) return encodeRpc(FormatsReplySchema, create(FormatsReplySchema, { formats: index.inputs() }));
    const targets = index.targets(inputFormat);
    if (!targets) {
      const error = ServiceFailure.notFound(`no conversion from ${inputFormat} is available`).toMessage();
      return encodeRpc(FormatsReplySchema, create(FormatsReplySchema, { error }));
    }
    return encodeRpc(FormatsReplySchema, create(FormatsReplySchema, { formats: targets }));
  }

  @MessagePattern(Subjects.catalogueOptions)
  options(@Payload() payload: unknown): JsonValue {
    const { inputFormat, outputFormat } = decodeRpc(OptionsRequestSchema, payload);
    const options = this.store.index.options(inputFormat, outputFormat);
    if (!options) {
      const error = ServiceFailure.notFound(`no conversion from ${inputFormat} to ${outputFormat} is available`).toMessage();
      return encodeRpc(OptionsReplySchema, create(OptionsReplySchema, { error }));
    }
    return encodeRpc(OptionsReplySchema, create(OptionsReplySchema, { options }));
  }

  @MessagePattern(Subjects.catalogueRoute)
  route(@Payload() payload: unknown): JsonValue {
    const { pairs } = decodeRpc(RouteRequestSchema, payload);
    const index = this.store.index;
    const routes = pairs.map(({ inputFormat, outputFormat }) => ({ inputFormat, outputFormat, family: index.family(inputFormat, outputFormat) }));
    return encodeRpc(RouteReplySchema, create(RouteReplySchema, { routes }));
  }
}
