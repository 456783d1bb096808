/**
 * Counts the queries an app or service sends to a real database, by kind, through a Kysely
 * plugin on the real connection (nothing of the database is imitated).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';

export interface QueryCounts {
  /** Lookups of one key by its hash: what each unknown token would cost without the set of usable keys. */
  keyLookups: number;
  /** Reads of the whole set of usable keys' hashes. */
  usableKeyReads: number;
  /** Writes of keys' last use (keys/key-usage.ts). */
  lastUseWrites: number;
  all: number;
}

export function countQueries(db: Kysely<Database>): { db: Kysely<Database>; counts: QueryCounts } {
  const counts: QueryCounts = { keyLookups: 0, usableKeyReads: 0, lastUseWrites: 0, all: 0 };
  const counted = db.withPlugin({
    transformQuery: ({ node }) => {
      counts.all += 1;
      const text = JSON.stringify(node);
      // Both select by api_keys' secret hash; the set's read is the one filtering on revocation.
      const readsHashes = node.kind === 'SelectQueryNode' && /"secret_?[hH]ash"/.test(text);
      if (readsHashes && /"revoked_?[aA]t"/.test(text)) counts.usableKeyReads += 1;
      else if (readsHashes) counts.keyLookups += 1;
      if (node.kind === 'UpdateQueryNode' && /"last_?[uU]sed_?[aA]t"/.test(text)) counts.lastUseWrites += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  return { db: counted, counts };
}
