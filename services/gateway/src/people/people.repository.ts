import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { PersonDocument } from './person.schema';

export type PersonRecord = PersonDocument;
const DUPLICATE_KEY = 11000;

/** Insert and read by `_id` only, except the admin listing (a scan, rare). */
@Injectable()
export class PeopleRepository {
  constructor(@InjectModel(PersonDocument.name) private readonly people: Model<PersonDocument>) {}

  /** false when the address is taken. */
  async insert(person: PersonRecord): Promise<boolean> {
    try {
      await this.people.create(person);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  findByEmail(email: string): Promise<PersonRecord | null> {
    return this.people.findById(email).lean<PersonRecord>().exec();
  }

  list(): Promise<PersonRecord[]> {
    return this.people.find().sort({ _id: 1 }).lean<PersonRecord[]>().exec();
  }
}
