import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { RouteReplySchema, RouteRequestSchema, Subjects } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { type Pair, RouteCache } from './route-cache';

/** How long a route the catalogue gave is used without asking again. */
const ROUTE_CACHE_MS = 5_000;

export interface ConversionRoute {
  inputFormat: string;
  outputFormat: string;
  /** The converter family that owns the pair; '' when none does. */
  family: string;
}

/** Asks the catalogue which running converter family owns each pair (held a few seconds: RouteCache). */
@Injectable()
export class CatalogueClient {
  private readonly cache = new RouteCache(ROUTE_CACHE_MS);

  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  route(pairs: Pair[]): Promise<ConversionRoute[]> {
    return this.cache.routes(pairs, (missing) => this.ask(missing));
  }

  private async ask(pairs: Pair[]): Promise<ConversionRoute[]> {
    const list = await this.rpc.request(Subjects.catalogueRoute, RouteRequestSchema, create(RouteRequestSchema, { pairs }), RouteReplySchema, {
      timeoutMs: this.config.catalogueTimeoutMs,
      unavailable: 'the format catalogue is unavailable',
    });
    return list.routes;
  }
}
