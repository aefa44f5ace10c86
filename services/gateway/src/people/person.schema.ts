import { MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A person who signs in to the website. Stored under the normalised address
 * so that sign-in is a read by `_id` (FerretDB scans on any other filter).
 * Only the argon2id hash of the password is kept.
 */
@Schema({ collection: 'people', versionKey: false })
export class PersonDocument {
  /** The address, trimmed and lowercased. */
  @Prop({ type: String, required: true })
  _id!: string;

  /** Stable id handed to other modules (sessions, OAuth grants): `p_<24 hex>`. */
  @Prop({ type: String, required: true })
  personId!: string;

  /** The account the person's keys, usage and jobs belong to (`u-<16 hex>`). */
  @Prop({ type: String, required: true })
  accountId!: string;

  @Prop({ type: String, required: true })
  passwordHash!: string;

  @Prop({ type: Date, required: true })
  createdAt!: Date;
}
export const PersonSchema = SchemaFactory.createForClass(PersonDocument);
export const personModels = MongooseModule.forFeature([{ name: PersonDocument.name, schema: PersonSchema }]);
