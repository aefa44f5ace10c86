import { MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** An account: who keys belong to and which plan limits them. Only the accounts room reads `accounts`. */
@Schema({ collection: 'accounts', versionKey: false })
export class AccountDocument {
  /** Lowercase id chosen by the operator, e.g. "acme"; appears in usage keys and download grants. */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, default: '' })
  name!: string;

  @Prop({ type: String, required: true })
  plan!: string;

  /** Signs the account's webhooks; served to the webhook dispatcher, never in an HTTP response. */
  @Prop({ type: String, required: true })
  signingSecret!: string;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  /** Set by `transmute-admin accounts suspend`: its keys and website sessions stop working at once. */
  @Prop({ type: Boolean, default: false })
  suspended?: boolean;
}
export const AccountSchema = SchemaFactory.createForClass(AccountDocument);

export const accountModels = MongooseModule.forFeature([{ name: AccountDocument.name, schema: AccountSchema }]);
