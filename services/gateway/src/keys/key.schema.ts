import { MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** An API key: stored by its non-secret prefix with the SHA-256 of the whole key, never the key. Only the keys room reads `api_keys`. */
@Schema({ collection: 'api_keys', versionKey: false })
export class ApiKeyDocument {
  /** The key's prefix (`tm_<prefix>_…`). */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  accountId!: string;

  /** Hex SHA-256 of the full key. */
  @Prop({ type: String, required: true })
  hash!: string;

  @Prop({ type: String, default: '' })
  label!: string;

  /** Canonical CIDRs ("a.b.c.d/32"); empty: any address. */
  @Prop({ type: [String], default: [] })
  allowedIps!: string[];

  @Prop({ type: Date, required: true })
  createdAt!: Date;
}
export const ApiKeySchema = SchemaFactory.createForClass(ApiKeyDocument);

export const keyModels = MongooseModule.forFeature([{ name: ApiKeyDocument.name, schema: ApiKeySchema }]);
