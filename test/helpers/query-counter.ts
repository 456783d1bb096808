/**
 * Counts the queries an app or service sends to a real database, by kind, through a Kysely
 * plugin on the real connection (nothing of the database is imitated).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';

export interface QueryCounts {
  /** Lookups of one key by its hash: what each unknown token would cost without the prefix set. */
  keyLookups: number;
  /** Reads of the set of usable key prefixes. */
  prefixReads: number;
  /** Writes of keys' last use (keys/key-usage.ts). */
  lastUseWrites: number;
  all: number;
}

export function countQueries(db: Kysely<Database>): { db: Kysely<Database>; counts: QueryCounts } {
  const counts: QueryCounts = { keyLookups: 0, prefixReads: 0, lastUseWrites: 0, all: 0 };
  const counted = db.withPlugin({
    transformQuery: ({ node }) => {
      counts.all += 1;
      const text = JSON.stringify(node);
      if (node.kind === 'SelectQueryNode' && /"secret_?[hH]ash"/.test(text)) counts.keyLookups += 1;
      if (node.kind === 'SelectQueryNode' && /"modifier":"Distinct"/.test(text) && text.includes('"prefix"')) counts.prefixReads += 1;
      if (node.kind === 'UpdateQueryNode' && /"last_?[uU]sed_?[aA]t"/.test(text)) counts.lastUseWrites += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  return { db: counted, counts };
}
