/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Adds the store's orders. There is no foreign key to pets on purpose: a pet may be
 * removed once it has no open order, and its closed orders stay readable with their pet_id.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** As in the initial migration (copied, so this file stays frozen): ids never handed out twice. */
function neverReusedIdColumn(db: Kysely<any>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? ({ type: 'bigint', build: (col: any) => col.primaryKey().generatedAlwaysAsIdentity() } as const)
    : ({ type: 'integer', build: (col: any) => col.primaryKey().autoIncrement() } as const);
}

export async function up(db: Kysely<any>): Promise<void> {
  const id = neverReusedIdColumn(db);
  await db.schema
    .createTable('orders')
    .addColumn('id', id.type, id.build)
    .addColumn('pet_id', 'bigint', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('placed', 'approved', 'delivered', 'cancelled')`))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  // The listing's filters, each walked in id order; pet_id also finds the orders of one pet.
  await db.schema.createIndex('orders_pet_id_id_idx').on('orders').columns(['pet_id', 'id']).execute();
  await db.schema.createIndex('orders_status_id_idx').on('orders').columns(['status', 'id']).execute();
  // The service never lets a pet have two open orders (it locks the pet first); the database
  // refuses it too, so a bug there fails loudly instead of selling one animal twice.
  await db.schema
    .createIndex('orders_one_open_per_pet_idx')
    .on('orders')
    .column('pet_id')
    .unique()
    .where(sql<boolean>`status in ('placed', 'approved')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('orders').execute();
}
