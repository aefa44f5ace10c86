import { Controller } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
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
  type RouteList,
  RouteListSchema,
  RouteReplySchema,
  type RouteRequest,
  RouteRequestSchema,
  ServiceFailure,
  Subjects,
} from '@transmute/contracts';
import { RpcHandler } from '@transmute/messaging';
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

  /** Which running family converts each pair ("" for none): the orchestrator's routing. */
  @RpcHandler(Subjects.catalogueRoute, RouteRequestSchema, RouteReplySchema)
  route({ pairs }: RouteRequest): RouteList {
    const index = this.store.index;
    const routes = pairs.map(({ inputFormat, outputFormat }) => ({ inputFormat, outputFormat, family: index.family(inputFormat, outputFormat) }));
    return create(RouteListSchema, { routes });
  }
}
