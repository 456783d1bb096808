/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Adds what finding pets needs: `name_key`, the case-folded search key of each
 * name (computed in JavaScript by the service, backfilled here with a frozen copy of its rule),
 * and indexes for the name and category filters, each ending in `id` for the ascending-id walk.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Frozen copy of the service's petNameKey as of this migration: NFKC, upper then lower case, ς as σ, NFKC. */
function nameKeyAsOf20261126(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().replaceAll('ς', 'σ').normalize('NFKC');
}

const BATCH = 250;

/**
 * PostgreSQL must compare keys byte by byte (code-point order, as SQLite's binary collation
 * does), not by the database's locale, or a prefix range would select other rows per dialect.
 */
function keyColumnType(db: Kysely<any>) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
}

export async function up(db: Kysely<any>): Promise<void> {
  // The default only lets the column be added to existing rows (SQLite needs one for NOT NULL);
  // the service always writes the key, and the rows already there are filled in below.
  await db.schema
    .alterTable('pets')
    .addColumn('name_key', keyColumnType(db), (col) => col.notNull().defaultTo(''))
    .execute();

  // Kysely runs PostgreSQL migrations in a transaction already; SQLite's gets one here, so the
  // backfill commits once rather than once per batch.
  if (db.isTransaction) await backfillNameKeys(db);
  else await db.transaction().execute(backfillNameKeys);

  await db.schema.createIndex('pets_name_key_id_idx').on('pets').columns(['name_key', 'id']).execute();
  await db.schema.createIndex('pets_category_id_id_idx').on('pets').columns(['category_id', 'id']).execute();
}

async function backfillNameKeys(db: Kysely<any>): Promise<void> {
  for (let afterId = 0; ;) {
    const rows: { id: number | string; name: string }[] = await db
      .selectFrom('pets')
      .select(['id', 'name'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    const cases = sql.join(
      rows.map((row) => sql`when ${Number(row.id)} then ${nameKeyAsOf20261126(row.name)}`),
      sql` `,
    );
    await sql`update pets set name_key = case id ${cases} end where id in (${sql.join(rows.map((row) => Number(row.id)))})`.execute(db);
    afterId = Number(rows.at(-1)!.id);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pets_category_id_id_idx').execute();
  await db.schema.dropIndex('pets_name_key_id_idx').execute();
  await db.schema.alterTable('pets').dropColumn('name_key').execute();
}
