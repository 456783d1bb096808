/**
 * The texts of the statements sent through a db, compiled as its dialect sends them: what the
 * bound of prepared statements (db/postgres/prepared-statements.ts) counts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';

export function recordingTexts(db: Kysely<Database>): { db: Kysely<Database>; texts: Set<string> } {
  const texts = new Set<string>();
  const recording = db.withPlugin({
    transformQuery: ({ node, queryId }) => {
      texts.add(db.getExecutor().compileQuery(node, queryId).sql);
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  return { db: recording, texts };
}
