import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { create } from '@bufbuild/protobuf';
import {
  ConversionOptionSchema,
  ErrorCode,
  FamilyManifestSchema,
  FormatsReplySchema,
  FormatsRequestSchema,
  OptionsReplySchema,
  OptionsRequestSchema,
  Subjects,
} from '@transmute/contracts';
import { createInfraProvider, type RunningInfra } from '@transmute/devstack';
import { NATS_CONNECTION, RpcClient, connectRpcServer } from '@transmute/messaging';
import { type NatsConnection, connect } from 'nats';
import { CatalogueIndex } from '../src/catalogue-index';
import { CatalogueRpcController } from '../src/catalogue.rpc.controller';
import { ManifestStore } from '../src/manifest-store';

/*
 * catalogue.formats / catalogue.options over real NATS, through the shared
 * RPC helper on both ends: the replies' oneof outcome carries the lists or
 * the NOT_FOUND failure. The store's index is built from fixed manifests
 * (manifest-store.int-spec covers how it follows the KV bucket).
 */

const index = new CatalogueIndex([
  create(FamilyManifestSchema, {
    family: 'image',
    pairs: [
      { inputFormat: 'png', outputFormat: 'jpg', options: [create(ConversionOptionSchema, { name: 'quality', type: 'integer' })] },
      { inputFormat: 'png', outputFormat: 'webp', options: [] },
    ],
  }),
]);

let infra: RunningInfra;
let app: INestApplication;
let rpc: RpcClient;
let connection: NatsConnection;

beforeAll(async () => {
  infra = await createInfraProvider().start();
  connection = await connect({ servers: infra.natsUrl, name: 'it-catalogue-client' });
  @Module({
    controllers: [CatalogueRpcController],
    providers: [{ provide: ManifestStore, useValue: { index } }, { provide: NATS_CONNECTION, useValue: connection }, RpcClient],
  })
  class CatalogueRpcModule {}
  app = await NestFactory.create(CatalogueRpcModule, { logger: false });
  await connectRpcServer(app, { url: infra.natsUrl, queue: 'it-catalogue' });
  await app.init();
  rpc = app.get(RpcClient);
});

afterAll(async () => {
  await app?.close();
  await connection?.close();
  await infra?.stop();
});

const formats = (inputFormat: string) => rpc.request(Subjects.catalogueFormats, FormatsRequestSchema, create(FormatsRequestSchema, { inputFormat }), FormatsReplySchema);

describe('catalogue RPC', () => {
  it('lists every readable format', async () => {
    expect((await formats('')).formats).toEqual(['png']);
  });

  it("lists one input's targets", async () => {
    expect((await formats('png')).formats).toEqual(['jpg', 'webp']);
  });

  it('answers NOT_FOUND for an input nothing reads', async () => {
    await expect(formats('mp3')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'no conversion from mp3 is available' });
  });

  it("lists a pair's options, or NOT_FOUND for a pair nobody converts", async () => {
    const request = (outputFormat: string) => create(OptionsRequestSchema, { inputFormat: 'png', outputFormat });
    const list = await rpc.request(Subjects.catalogueOptions, OptionsRequestSchema, request('jpg'), OptionsReplySchema);
    expect(list.options.map((option) => option.name)).toEqual(['quality']);
    await expect(rpc.request(Subjects.catalogueOptions, OptionsRequestSchema, request('pdf'), OptionsReplySchema)).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
      message: 'no conversion from png to pdf is available',
    });
  });
});
