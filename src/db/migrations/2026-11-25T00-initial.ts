/**
 * Frozen in time: this migration must keep producing the same schema forever, so it imports
 * nothing from the application and speaks to the database as `Kysely<any>`.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** The one dialect difference of this schema: how an id that is never reused is generated. */
function neverReusedIdColumn(db: Kysely<any>) {
  // SQLite's AUTOINCREMENT (unlike a plain rowid) never hands out an id of a deleted row again;
  // a PostgreSQL identity column draws from a sequence, which never goes backwards either.
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? ({ type: 'bigint', build: (col: any) => col.primaryKey().generatedAlwaysAsIdentity() } as const)
    : ({ type: 'integer', build: (col: any) => col.primaryKey().autoIncrement() } as const);
}

export async function up(db: Kysely<any>): Promise<void> {
  const id = neverReusedIdColumn(db);

  await db.schema
    .createTable('pets')
    .addColumn('id', id.type, id.build)
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('category_id', 'bigint', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('available', 'pending', 'sold')`))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  // listPets filters by status and walks ids in order.
  await db.schema.createIndex('pets_status_id_idx').on('pets').columns(['status', 'id']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', id.type, id.build)
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('prefix', 'text', (col) => col.notNull())
    .addColumn('secret_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('pets').execute();
}
