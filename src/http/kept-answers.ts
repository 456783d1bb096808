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
import type { DataVersion } from '../db/data-version.js';
import { engineOf } from '../db/engine.js';

/** What Fastify sets for an object it serializes, set here for answers serialized in advance. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What a handler answers: the value its route's response schema serializes, and its own headers. */
interface Answer {
  value: unknown;
  headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * An answer as sent: serialized, with its headers. Kept as a string, not as bytes: Node sends a
 * string body with the head in one write, and the encoding that costs is small beside the write
 * itself (a profile's `writeUtf8String` is mostly the send). Bytes went out as a two-part writev
 * and measured no cheaper (list20 at 60 µs of CPU either way, in one bench run).
 */
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
  const answers = keptValues<KeptAnswer>(engineOf(db)?.dataVersion, options);
  const send = (reply: FastifyReply, answer: KeptAnswer) => {
    if (answer.headers !== undefined) reply.headers(answer.headers);
    // Fastify sends a string as it is. It was serialized by the route's own response schema
    // (`reply.serialize`), so it gets the headers Fastify would have set for the object; the
    // typed reply expects that object, and the string is it, serialized.
    return reply.type(JSON_CONTENT_TYPE).send(answer.body);
  };
  return (reply, key, read) => {
    const kept = answers.get(key);
    if (kept !== undefined) return void send(reply, kept);
    return answers
      .getOrRead(key, async () => {
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
   * Reads the value (when not kept) and keeps it, only if no change was seen while it was read:
   * a value read across a change is answered, and never answered again from here.
   */
  getOrRead(key: string, read: () => Promise<V>): Promise<V>;
}

/**
 * Values kept while `version` stays the same; with no version, nothing is kept.
 *
 * The version is looked at only when a value is found, before answering it: on SQLite that look
 * is a statement (`PRAGMA data_version`), and when it was taken on every miss too, before and
 * after the read, the two looks cost more than the read itself (14 % of getPet's busy time when
 * every getPet missed). It is safe
 * because versions only grow: every value was read after `entriesVersion` was seen (the version
 * of the last look, taken before the read began), so when the version is still `entriesVersion`
 * as a value is found, nothing changed between its read and now. A read that spans a look which
 * saw a change is not kept, as it may have read the data before that change.
 */
export function keptValues<V>(version: DataVersion | undefined, options: { maxEntries: number }): KeptValues<V> {
  if (!version) return { get: () => undefined, getOrRead: (_key, read) => read() };

  let entries = new Map<string, V>();
  let entriesVersion = version.current();
  const get = (key: string): V | undefined => {
    const value = entries.get(key);
    if (value === undefined) return undefined;
    const now = version.current();
    if (now === entriesVersion) return value;
    entries = new Map();
    entriesVersion = now;
    return undefined;
  };

  return {
    get,
    async getOrRead(key, read) {
      const kept = get(key);
      if (kept !== undefined) return kept;
      const readAt = entriesVersion;
      const value = await read();
      if (entriesVersion === readAt) {
        if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, value);
      }
      return value;
    },
  };
}
