/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. On PostgreSQL, a new pet's or order's id becomes its transaction's id plus a
 * fixed offset, instead of the next value of a sequence, so a listing can tell which ids are
 * settled without any insert waiting for another (README, "Listings and ids on PostgreSQL").
 *
 * Why: a sequence hands out ids in the order inserts start, but they commit in any order, so
 * inserts used to queue on one lock through their commit to keep ids visible in order. Transaction
 * ids (xid8: 64 bits, never wrap) come with a watermark, `pg_snapshot_xmin`, below which every
 * transaction has ended; an id made from the xid is settled exactly when its xid is below it.
 *
 * The offset is one more than the largest id ever handed out (rows and sequences of both
 * tables), so every new id is above every old one. Instances of the previous release that are
 * still running insert without naming the id, so they get the new default too.
 * SQLite: nothing changes (one writer at a time; its ids stay consecutive).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const TABLES = ['pets', 'orders'] as const;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The largest id a table holds or its identity sequence has handed out (0 when none). */
async function largestIdEverUsed(db: Kysely<any>, table: string, withSequence: boolean): Promise<bigint> {
  const sequence = withSequence ? sql`, coalesce(pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass), 0)` : sql``;
  const { rows } = await sql<{ largest: string }>`select greatest(coalesce(max(id), 0)${sequence})::text as largest from ${sql.table(table)}`.execute(db);
  return BigInt(rows[0]!.largest);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // Kysely runs each migration in one transaction on PostgreSQL. The lock keeps any insert of a
  // running instance from drawing another sequence value between the reading and the change.
  await sql`lock table pets, orders in access exclusive mode`.execute(db);
  let largest = 0n;
  for (const table of TABLES) {
    const used = await largestIdEverUsed(db, table, true);
    if (used > largest) largest = used;
  }
  const offset = largest + 1n;
  // The one place the offset lives: the ids' default and the listings' bound both call it.
  await sql`create function animal_store_id_offset() returns bigint language sql immutable parallel safe
    as ${sql.lit(`select ${offset.toString()}::bigint`)}`.execute(db);
  // The smallest id a transaction not yet ended (in the cluster, as of the statement's snapshot)
  // could hold: every id below it is committed and visible, or rolled back for good.
  await sql`create function visible_id_bound() returns bigint language sql stable parallel safe
    as 'select pg_snapshot_xmin(pg_current_snapshot())::text::bigint + animal_store_id_offset()'`.execute(db);
  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} alter column id drop identity`.execute(db);
    // xid8 has no cast to bigint; through text is exact (xid8 values stay far below 2^63).
    await sql`alter table ${sql.table(table)} alter column id set default (pg_current_xact_id()::text::bigint + animal_store_id_offset())`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`lock table pets, orders in access exclusive mode`.execute(db);
  for (const table of TABLES) {
    const next = (await largestIdEverUsed(db, table, false)) + 1n;
    await sql`alter table ${sql.table(table)} alter column id drop default`.execute(db);
    await sql`alter table ${sql.table(table)} alter column id add generated always as identity (start with ${sql.lit(Number(next))})`.execute(db);
  }
  await sql`drop function visible_id_bound()`.execute(db);
  await sql`drop function animal_store_id_offset()`.execute(db);
}
