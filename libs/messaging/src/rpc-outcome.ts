import { create, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { ErrorCode, type ServiceError, ServiceErrorSchema, ServiceFailure } from '@transmute/contracts';

/*
 * Every reply in proto/ has one shape:
 *   oneof outcome { <Value> <name> = 1; ServiceError error = 2; }
 * These helpers build and read that shape for any reply schema, and refuse a
 * schema that does not have it, so a new reply cannot drift from the rule.
 */

type Outcome<D extends DescMessage> = MessageShape<D> extends { outcome: infer O } ? O : never;

/** The value a reply of schema `D` carries when it succeeds (e.g. a `Job` for `JobReply`). */
export type ReplyValue<D extends DescMessage> = Extract<Exclude<Outcome<D>, { case: 'error' | undefined }>, { value: unknown }>['value'];

const checked = new WeakMap<DescMessage, string>();

/** The oneof case that holds the value; throws when `schema` is not an outcome reply. */
export function valueCaseOf(schema: DescMessage): string {
  const known = checked.get(schema);
  if (known) return known;
  const fields = schema.fields;
  const outcome = schema.oneofs.length === 1 ? schema.oneofs[0] : undefined;
  const value = outcome?.fields.find((field) => field.number === 1);
  const error = outcome?.fields.find((field) => field.number === 2);
  const shaped =
    outcome?.name === 'outcome' &&
    fields.length === 2 &&
    outcome.fields.length === 2 &&
    value !== undefined &&
    error?.name === 'error' &&
    error.fieldKind === 'message' &&
    error.message.typeName === ServiceErrorSchema.typeName;
  if (!shaped || !value) {
    throw new Error(`${schema.typeName} is not a reply: it needs exactly "oneof outcome { <Value> <name> = 1; ServiceError error = 2; }"`);
  }
  checked.set(schema, value.localName);
  return value.localName;
}

export function successReply<D extends DescMessage>(schema: D, value: ReplyValue<D>): MessageShape<D> {
  return create(schema, { outcome: { case: valueCaseOf(schema), value } } as never);
}

export function failureReply<D extends DescMessage>(schema: D, failure: ServiceFailure): MessageShape<D> {
  valueCaseOf(schema);
  return create(schema, { outcome: { case: 'error', value: failure.toMessage() } } as never);
}

/** The reply's value, or its error thrown as the ServiceFailure it describes. */
export function replyValue<D extends DescMessage>(schema: D, reply: MessageShape<D>, subject: string): ReplyValue<D> {
  const valueCase = valueCaseOf(schema);
  const outcome = (reply as unknown as { outcome: { case: string | undefined; value?: unknown } }).outcome;
  if (outcome.case === valueCase) return outcome.value;
  if (outcome.case === 'error') throw ServiceFailure.fromMessage(outcome.value as ServiceError);
  // Retryable like any unexpected fault (asServiceFailure): a redeployed replier may answer properly.
  throw new ServiceFailure(ErrorCode.INTERNAL, `${subject} answered neither a ${valueCase} nor an error`, true);
}
