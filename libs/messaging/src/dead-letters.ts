import { Inject, Injectable } from '@nestjs/common';
import { type MessageInitShape, create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import type { JetStreamManager, NatsConnection } from 'nats';
import { Counter, register } from 'prom-client';
import { DEAD_LETTERS_STREAM, type DeadLetter, DeadLetterSchema, Subjects } from '@transmute/contracts';
import { JetStreamSetup } from './jetstream-setup';
import { NATS_CONNECTION } from './tokens';

/** Every dead letter a process recorded, on its `/metrics`; alert on any increase. */
export const deadLettersTotal =
  (register.getSingleMetric('transmute_dead_letters_total') as Counter<string>) ??
  new Counter({ name: 'transmute_dead_letters_total', help: 'Messages given up on and recorded as dead letters, by source and kind', labelNames: ['source', 'kind'] });

export type DeadLetterInit = Omit<MessageInitShape<typeof DeadLetterSchema>, '$typeName' | 'deadAt'>;

/**
 * Records a dead letter in DEAD_LETTERS before the caller acknowledges the
 * original message. Throws when JetStream did not take it, so the caller keeps
 * (naks) the original rather than dropping it unseen.
 */
@Injectable()
export class DeadLetterPublisher {
  private ensured?: Promise<void>;

  constructor(
    private readonly setup: JetStreamSetup,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async publish(init: DeadLetterInit): Promise<DeadLetter> {
    if (!init.id || !init.source) throw new Error('a dead letter needs an id and a source');
    this.ensured ??= this.setup.ensureDeadLettersStream().catch((error: unknown) => {
      this.ensured = undefined;
      throw error;
    });
    await this.ensured;
    const letter = create(DeadLetterSchema, { ...init, deadAt: timestampNow() });
    const ack = await this.connection.jetstream().publish(Subjects.deadLetters(letter.source), toBinary(DeadLetterSchema, letter), { msgID: letter.id });
    if (!ack.duplicate) deadLettersTotal.inc({ source: letter.source, kind: letter.kind });
    return letter;
  }
}

export interface ReadDeadLettersOptions {
  /** Newest first, at most this many. */
  limit: number;
  /** Only this source's letters. */
  source?: string;
}

/** The newest dead letters (for the admin CLI); an empty list when the stream does not exist yet. */
export async function readDeadLetters(jsm: JetStreamManager, { limit, source }: ReadDeadLettersOptions): Promise<DeadLetter[]> {
  let info;
  try {
    info = await jsm.streams.info(DEAD_LETTERS_STREAM.name);
  } catch (error) {
    if (error instanceof Error && /not found/i.test(error.message)) return [];
    throw error;
  }
  const letters: DeadLetter[] = [];
  for (let seq = info.state.last_seq; seq >= info.state.first_seq && seq > 0 && letters.length < limit; seq--) {
    let stored;
    try {
      stored = await jsm.streams.getMessage(DEAD_LETTERS_STREAM.name, { seq });
    } catch {
      continue; // Removed by the age or count limit meanwhile.
    }
    if (source && stored.subject !== Subjects.deadLetters(source)) continue;
    letters.push(fromBinary(DeadLetterSchema, stored.data));
  }
  return letters;
}
