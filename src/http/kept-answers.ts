/**
 * Serialized answers kept until the data may have changed. On SQLite, where the process can know
 * that cheaply (db/data-version.ts), a page of pets served again costs a map lookup instead of a
 * query and a serialization; every entry is dropped as soon as anything is committed, by this
 * process or any other, so an answer is never staler than the request before it. On PostgreSQL
 * other instances commit unseen, so nothing is kept. A kept answer still passes every hook: only
 * the handler's own work is saved.
 *
 * Bounded: at most `maxEntries` answers (oldest out first), and all of them are dropped at the
 * first change, so a client sending a million different queries only churns the cache.
 */
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { type DataVersion, dataVersionOf } from '../db/data-version.js';

/** What Fastify sets for an object it serializes, set here for answers serialized in advance. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What a handler answers: the value its route's response schema serializes, and its own headers. */
export interface Answer {
  value: unknown;
  headers?: Readonly<Record<string, string>> | undefined;
}

/** An answer as sent: serialized, with its headers. */
interface KeptAnswer {
  body: string;
  headers: Readonly<Record<string, string>> | undefined;
}

/**
 * Sends the answer kept for `key`, or reads it, serializes it by the route's response schema,
 * keeps it and sends it. The key must name everything the answer depends on (the key and its
 * scope were checked before the handler). A kept answer is sent at once, without a promise; else
 * the promise settles once the reply has gone out, so Fastify never sends again.
 */
export type SendKept = (reply: FastifyReply, key: string, read: () => Promise<Answer>) => void | Promise<void>;

export function keptAnswers(db: Kysely<any>, options: { maxEntries: number }): SendKept {
  const answers = keptValues<KeptAnswer>(dataVersionOf(db), options);
  const send = (reply: FastifyReply, answer: KeptAnswer) => {
    if (answer.headers !== undefined) reply.headers(answer.headers);
    // Fastify sends a string as it is. It was serialized by the route's own response schema
    // (`reply.serialize`), so it gets the headers Fastify would have set for the object; the
    // typed reply expects that object, and the string is it, serialized.
    return reply.type(JSON_CONTENT_TYPE).send(answer.body as never);
  };
  return (reply, key, read) => {
    const kept = answers.get(key);
    if (kept !== undefined) return void send(reply, kept);
    return answers
      .readMissed(key, async () => {
        const { value, headers } = await read();
        return { body: reply.serialize(value) as string, headers };
      })
      .then(async (answer) => {
        await send(reply, answer);
      });
  };
}

export interface KeptValues<V> {
  /** The value kept for `key` if nothing changed since it was read. */
  get(key: string): V | undefined;
  /**
   * Reads the value (when not kept) and keeps it, only if no change happened while it was read:
   * a value read across a change is answered but not kept.
   */
  getOrRead(key: string, read: () => Promise<V>): Promise<V>;
  /**
   * getOrRead's second half, for a caller whose get(key) just missed in the same synchronous
   * step: it spares a second look at the data version (a statement on SQLite).
   */
  readMissed(key: string, read: () => Promise<V>): Promise<V>;
}

/** Values kept while `version` stays the same; with no version, nothing is kept. */
export function keptValues<V>(version: DataVersion | undefined, options: { maxEntries: number }): KeptValues<V> {
  if (!version) return { get: () => undefined, getOrRead: (_key, read) => read(), readMissed: (_key, read) => read() };

  let entries = new Map<string, V>();
  let entriesVersion = version.current();
  const currentEntries = (): Map<string, V> => {
    const now = version.current();
    if (now !== entriesVersion) {
      entries = new Map();
      entriesVersion = now;
    }
    return entries;
  };
  const get = (key: string) => currentEntries().get(key);
  const readMissed = async (key: string, read: () => Promise<V>) => {
    // The version the last check saw, in this same step: the one the read starts from.
    const readAt = entriesVersion;
    const value = await read();
    const now = currentEntries();
    if (entriesVersion === readAt) {
      if (now.size >= options.maxEntries) now.delete(now.keys().next().value!);
      now.set(key, value);
    }
    return value;
  };

  return {
    get,
    async getOrRead(key, read) {
      const kept = get(key);
      return kept !== undefined ? kept : readMissed(key, read);
    },
    readMissed,
  };
}
