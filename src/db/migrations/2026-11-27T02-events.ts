/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Adds the events outbox: every change of a pet or an order records one
 * row of `events` in the same transaction as the change, written by triggers, so no write path
 * (the service, the CLI, a script, an instance of any release from this one on) can change the
 * store without its event, a rolled-back change leaves none, and recording costs no round trip.
 *
 * What a trigger stores in `data` is the row's columns as JSON (times in epoch milliseconds);
 * the service turns them into the API's Pet or Order when it reads them (src/events/). A pet
 * update that leaves name, category and status as they were records nothing. `changed` is a JSON
 * array of the API's field names, for `pet.updated` only.
 *
 * Order of the feed: `txn` is the writing transaction's id plus the ids' offset on PostgreSQL
 * (as the pets' and orders' ids, migration 2026-11-26T08), so the feed walks (txn, id) and shows
 * an event once every older writer has ended (the visible bound of that release; migration
 * 2026-11-28T00 keys the feed by position instead). On SQLite one writer at a time means ids
 * commit in order: `txn` stays 0 and the feed walks ids. Ids are never reused:
 * AUTOINCREMENT on SQLite, an identity on PostgreSQL (sequences never go back).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const PET_FIELDS = [
  ['name', 'name'],
  ['categoryId', 'category_id'],
  ['status', 'status'],
] as const;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
  // The feed's walk, filtered by type or not (the type filter reads this index's order and skips).
  await db.schema.createIndex('events_txn_id_idx').on('events').columns(['txn', 'id']).execute();
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`create table events (
    id bigint generated always as identity primary key,
    txn bigint not null default (pg_current_xact_id()::text::bigint + animal_store_id_offset()),
    type text not null,
    occurred_at bigint not null default ((extract(epoch from clock_timestamp()) * 1000)::bigint),
    data text not null,
    changed text
  )`.execute(db);
  const petJson = (row: 'new' | 'old') =>
    sql.raw(`json_build_object('id', ${row}.id, ${PET_FIELDS.map(([field, column]) => `'${field}', ${row}.${column}`).join(', ')})::text`);
  const changedFields = PET_FIELDS.map(([field, column]) => `case when new.${column} is distinct from old.${column} then '${field}' end`).join(', ');
  await sql`create function animal_store_pet_event() returns trigger language plpgsql as $$
    declare
      changed text[];
    begin
      if tg_op = 'INSERT' then
        insert into events (type, data) values ('pet.created', ${petJson('new')});
      elsif tg_op = 'UPDATE' then
        changed := array_remove(array[${sql.raw(changedFields)}], null);
        if cardinality(changed) > 0 then
          insert into events (type, data, changed) values ('pet.updated', ${petJson('new')}, array_to_json(changed)::text);
        end if;
      else
        insert into events (type, data) values ('pet.deleted', ${petJson('old')});
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function animal_store_order_event() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.status is distinct from old.status then
        insert into events (type, data) values ('order.' || new.status,
          json_build_object('id', new.id, 'petId', new.pet_id, 'status', new.status, 'createdAt', new.created_at, 'updatedAt', new.updated_at)::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger pets_events after insert or update or delete on pets for each row execute function animal_store_pet_event()`.execute(db);
  await sql`create trigger orders_events after insert or update on orders for each row execute function animal_store_order_event()`.execute(db);
}

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`create table events (
    id integer primary key autoincrement,
    txn integer not null default 0,
    type text not null,
    occurred_at integer not null default (cast(round((julianday('now') - 2440587.5) * 86400000) as integer)),
    data text not null,
    changed text
  )`.execute(db);
  const petJson = (row: 'new' | 'old') => `json_object('id', ${row}.id, ${PET_FIELDS.map(([field, column]) => `'${field}', ${row}.${column}`).join(', ')})`;
  const anyChanged = PET_FIELDS.map(([, column]) => `new.${column} is not old.${column}`).join(' or ');
  // A JSON array of the changed fields, in the fixed order of PET_FIELDS.
  const changed = `'[' || rtrim(${PET_FIELDS.map(([field, column]) => `case when new.${column} is not old.${column} then '"${field}",' else '' end`).join(' || ')}, ',') || ']'`;
  const orderJson = `json_object('id', new.id, 'petId', new.pet_id, 'status', new.status, 'createdAt', new.created_at, 'updatedAt', new.updated_at)`;
  await sql
    .raw(
      `create trigger pets_event_created after insert on pets begin
    insert into events (type, data) values ('pet.created', ${petJson('new')}); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger pets_event_updated after update on pets when ${anyChanged} begin
    insert into events (type, data, changed) values ('pet.updated', ${petJson('new')}, ${changed}); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger pets_event_deleted after delete on pets begin
    insert into events (type, data) values ('pet.deleted', ${petJson('old')}); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger orders_event_placed after insert on orders begin
    insert into events (type, data) values ('order.' || new.status, ${orderJson}); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger orders_event_moved after update on orders when new.status is not old.status begin
    insert into events (type, data) values ('order.' || new.status, ${orderJson}); end`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger pets_events on pets`.execute(db);
    await sql`drop trigger orders_events on orders`.execute(db);
    await sql`drop function animal_store_pet_event()`.execute(db);
    await sql`drop function animal_store_order_event()`.execute(db);
  } else {
    for (const trigger of ['pets_event_created', 'pets_event_updated', 'pets_event_deleted', 'orders_event_placed', 'orders_event_moved']) {
      await sql.raw(`drop trigger ${trigger}`).execute(db);
    }
  }
  await db.schema.dropTable('events').execute();
}
