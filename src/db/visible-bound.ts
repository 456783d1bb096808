/**
 * The one rule of what a listing may show on PostgreSQL, kept here so that every listing whose
 * keys come from transaction ids reuses it as is: the pets and the orders today, and the feed of
 * events planned next (issue 17: "an event shows once every older writer has ended, ordered by
 * transaction id and id"), whose keys are made the same way (the ids' default of migration
 * 2026-11-26T08: `pg_current_xact_id()` plus `animal_store_id_offset()`). A new listing adds the
 * statement's snapshot to its select (`withListingSnapshot`) and passes its rows, in ascending
 * key order, through `readSettled` (which keeps them with `keepSettled`); an answer that is no walk (every row asked for fits in one
 * page, so no next page can follow) keeps every row the statement read instead.
 *
 * The rule. A row's id is its transaction's id plus a fixed offset, so ids are drawn at insert
 * but become visible at commit, in any order. A page that walks ids upwards keeps only the ids
 * below the smallest one a transaction still running could commit: each page is then a complete
 * prefix in id order, and a reader paging by `id > cursor` never passes a row still committing.
 * "Still running" is read from the listing statement's own snapshot (a column of its result, so
 * the rows and the bound agree), leaving out the transactions of the cluster's other databases:
 * they can never write this database's tables, and one left idle anywhere on the server (a
 * forgotten psql session) held every listing back for as long as it stayed open. A transaction
 * of this database still holds the listings back, as it must; db/listing-holds.ts tells of it.
 *
 * Whose transaction is whose: pg_stat_activity (backend_xid and datid, shown to every role) and
 * pg_prepared_xacts. Reading them costs from 20 µs to a millisecond on a busy server, so a
 * listing reads them only when its page would otherwise hide rows behind a transaction it does
 * not know yet; what it learns is kept per database handle (a transaction never changes
 * database) until the transaction has ended. Pages whose rows all lie below the bound, the common
 * case, cost nothing more than the column. When the views cannot be read (revoked from the
 * service's role, or the read timed out), the page keeps the strict bound instead (every running
 * transaction holds it back), and the process asks again only after LOOK_UP_RETRY_MS.
 *
 * `visible_id_bound()`, the SQL function of migration 2026-11-26T08, is the stricter bound that
 * counts every transaction of the cluster: still true (every id below it is settled), kept for
 * instances of the previous release during an upgrade and for scripts.
 *
 * SQLite lets one writer at a time into the file, so ids commit in order and every row is kept.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { isPostgres } from './dialect.js';

/** The column `withListingSnapshot` adds on PostgreSQL: `xmin:xmax:xip,…+offset`. */
export interface ListingSnapshotColumn {
  listingSnapshot?: string;
}

/**
 * Adds the statement's snapshot and the ids' offset to a listing's select on PostgreSQL, as one
 * text column. A sub-select, so the server computes it once per statement, not per row.
 */
export function withListingSnapshot<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  if (!isPostgres(db)) return query;
  return query.select(sql<string>`(select pg_current_snapshot()::text || '+' || animal_store_id_offset()::text)`.as('listingSnapshot')) as QB;
}

/**
 * Of rows read in ascending id order by a statement made with `withListingSnapshot`, the ones
 * below the first id a transaction of this database, still running as the statement started,
 * could yet commit. The rows keep the column (copying them cost 4 µs a page): callers map rows to
 * the API's shapes, which name their fields.
 */
async function keepSettled<Row extends { id: number }>(db: Kysely<any>, rows: readonly (Row & ListingSnapshotColumn)[]): Promise<Row[]> {
  return keepSettledBy(db, rows, (row) => row.id);
}

/** Pauses before a page is read again while a transaction still running hides rows it saw: 175 ms in all at most. */
const REREAD_PAUSES_MS = [5, 20, 50, 100];

/**
 * Reads a page (`read`: rows in ascending id order, made with `withListingSnapshot`) and keeps its
 * settled rows, reading it again after a short pause, a few times, while a transaction of this
 * database still running hides rows the statement saw. Those rows are committed: without another
 * look, a page cut by a short transaction of another request or of a background job (the webhook
 * dispatcher's, every half second while events flow) ended a walk before them, and a client that
 * had created an animal and then walked the listing could miss it. A transaction that stays open
 * (a forgotten session: db/listing-holds.ts tells of it) still holds the page back after the last look.
 */
export async function readSettled<Row extends { id: number }>(db: Kysely<any>, read: () => Promise<(Row & ListingSnapshotColumn)[]>): Promise<Row[]> {
  let rows = await read();
  let kept = await keepSettled(db, rows);
  for (const pause of REREAD_PAUSES_MS) {
    if (kept.length === rows.length) break;
    await sleep(pause);
    rows = await read();
    kept = await keepSettled(db, rows);
  }
  return kept;
}

/**
 * `keepSettled` for a listing whose rows are ordered by a key made like the ids (a transaction id
 * plus the offset) that is not their id: the events feed walks (txn, id), several events sharing
 * one txn. Rows in ascending key order; ties are kept or left out together.
 */
export async function keepSettledBy<Row>(db: Kysely<any>, rows: readonly (Row & ListingSnapshotColumn)[], keyOf: (row: Row) => number): Promise<Row[]> {
  const text = rows[0]?.listingSnapshot;
  if (text === undefined) return rows as Row[];
  const bound = await settledBoundOf(db, text, BigInt(keyOf(rows.at(-1)!)));
  return bound === undefined ? (rows as Row[]) : rows.filter((row) => BigInt(keyOf(row)) < bound);
}

/**
 * PostgreSQL: the first key (transaction id plus offset) a transaction of this database still
 * running could commit, as of a snapshot read now: every key below it is settled for good. Where
 * a feed that starts "after the newest event" starts, so it misses nothing still committing.
 * SQLite: undefined (one writer at a time: whatever is committed is settled).
 */
export async function currentSettledBound(db: Kysely<any>): Promise<bigint | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<Required<ListingSnapshotColumn>>`select pg_current_snapshot()::text || '+' || animal_store_id_offset()::text as listing_snapshot`.execute(db);
  const text = rows[0]!.listingSnapshot;
  // Asked as for a page ending at the newest possible key, so unknown transactions are looked up.
  return (await settledBoundOf(db, text, BigInt(Number.MAX_SAFE_INTEGER))) ?? BigInt(Number.MAX_SAFE_INTEGER);
}

/** The settled bound of a listing snapshot for a page whose last key is `last`; undefined when every key up to `last` is settled. */
async function settledBoundOf(db: Kysely<any>, text: string, last: bigint): Promise<bigint | undefined> {
  const snapshot = parseListingSnapshot(text);
  const known = knownTransactionsOf(db);
  known.forgetEnded(snapshot);
  let bound = settledBound(snapshot, known);
  if (bound > last) return undefined;
  // Some rows would be hidden: learn whose the unknown transactions before them are.
  if (snapshot.running.some((xid) => xid + snapshot.offset <= last && !known.has(xid)) && known.mayLookUp(Date.now())) {
    let transactions: RunningTransaction[] | undefined;
    try {
      transactions = await readRunningTransactions(db);
    } catch {
      // The views may be closed to the service's role (a hardened server revokes pg_stat_activity
      // from PUBLIC), or the read timed out: the rows were read, so answer them under the strict
      // bound (every unknown transaction holds the page back: a walk stays exact), never a 500.
      // Not asked again for a while, so each listing does not pay for a read bound to fail.
      known.lookUpFailed(Date.now());
    }
    if (transactions) {
      known.learn(snapshot, transactions);
      bound = settledBound(snapshot, known);
    }
  }
  return bound;
}

/** A statement's snapshot: transaction ids as PostgreSQL's xid8 (64 bits, never wrapping). */
interface ListingSnapshot {
  /** Every transaction below it has ended. */
  xmin: bigint;
  /** Every transaction at or above it is invisible to the statement (running or not yet begun). */
  xmax: bigint;
  /** The transactions between the two still running. */
  running: bigint[];
  /** The ids' offset (`animal_store_id_offset()`). */
  offset: bigint;
}

function parseListingSnapshot(text: string): ListingSnapshot {
  const match = /^(\d+):(\d+):([\d,]*)\+(\d+)$/.exec(text);
  if (!match) throw new Error(`not a listing snapshot: ${JSON.stringify(text)}`);
  return {
    xmin: BigInt(match[1]!),
    xmax: BigInt(match[2]!),
    running: match[3] === '' ? [] : match[3]!.split(',').map(BigInt),
    offset: BigInt(match[4]!),
  };
}

/** The first id a transaction of this database (or one not known to be another's) could still commit. */
function settledBound(snapshot: ListingSnapshot, known: KnownTransactions): bigint {
  let first = snapshot.xmax;
  for (const xid of snapshot.running) if (xid < first && !known.isElsewhere(xid)) first = xid;
  return first + snapshot.offset;
}

/** A transaction running in the cluster, as pg_stat_activity or pg_prepared_xacts shows it. */
export interface RunningTransaction {
  /** The 32-bit transaction id the views show (the low half of the xid8). */
  xid: string;
  /** Whether it belongs to this database; null when the server does not say (a process of no database). */
  here: boolean | null;
  /** A session's process id; null for a prepared transaction. */
  pid: number | null;
  applicationName: string | null;
  /** Null unless the service's role may see it (pg_read_all_stats, or the same role). */
  state: string | null;
  /** Since its transaction began (sessions: null unless the role may see it) or it was prepared. */
  ageMs: number | null;
  /** A prepared transaction's name; null for a session. */
  gid: string | null;
}

/** Every transaction of the cluster that has an id and has not ended, with its database. */
export async function readRunningTransactions(db: Kysely<any>): Promise<RunningTransaction[]> {
  const { rows } = await sql<RunningTransaction>`
    select a.backend_xid::text as xid, a.datname = current_database() as here, a.pid, a.application_name, a.state,
           extract(epoch from clock_timestamp() - a.xact_start)::float8 * 1000 as age_ms, null::text as gid
      from pg_stat_activity a where a.backend_xid is not null and a.pid <> pg_backend_pid()
    union all
    select p.transaction::text, p.database = current_database(), null, null, null,
           extract(epoch from clock_timestamp() - p.prepared)::float8 * 1000, p.gid
      from pg_prepared_xacts p`.execute(db);
  return rows;
}

const LOW_32_BITS = 0xffffffffn;
/** Entries kept about transactions of this database at most; those of other databases are few. */
const MAX_KNOWN = 10_000;
/** How long after a failed read of pg_stat_activity and pg_prepared_xacts the listings of a process hold back without asking again. */
const LOOK_UP_RETRY_MS = 5_000;

/** What a process has learned of the running transactions of one cluster: whose each one is. */
class KnownTransactions {
  readonly #elsewhere = new Map<bigint, true>();
  readonly #here = new Map<bigint, true>();
  #noLookUpBefore = 0;

  /** Whether a failed read of the views is far enough behind to read them again. */
  mayLookUp(at: number): boolean {
    return at >= this.#noLookUpBefore;
  }

  lookUpFailed(at: number): void {
    this.#noLookUpBefore = at + LOOK_UP_RETRY_MS;
  }

  has(xid: bigint): boolean {
    return this.#elsewhere.has(xid) || this.#here.has(xid);
  }

  isElsewhere(xid: bigint): boolean {
    return this.#elsewhere.has(xid);
  }

  /** Records whose each running transaction of the snapshot is (the views give 32-bit ids; running ones are within 2^31 of each other). */
  learn(snapshot: ListingSnapshot, transactions: readonly RunningTransaction[]): void {
    const byLowBits = new Map(transactions.map((transaction) => [BigInt(transaction.xid), transaction]));
    for (const xid of snapshot.running) {
      const transaction = byLowBits.get(xid & LOW_32_BITS);
      // Not shown: it ended meanwhile (the next snapshot will not list it), or it is no session's. Not recorded.
      if (!transaction) continue;
      if (transaction.here === false) this.#elsewhere.set(xid, true);
      else if (this.#here.size < MAX_KNOWN) this.#here.set(xid, true);
    }
  }

  /** Forgets the transactions the snapshot no longer lists as running: they have ended for good. */
  forgetEnded(snapshot: ListingSnapshot): void {
    if (this.#elsewhere.size === 0 && this.#here.size === 0) return;
    const running = new Set(snapshot.running);
    for (const known of [this.#elsewhere, this.#here]) {
      for (const xid of known.keys()) if (xid < snapshot.xmax && !running.has(xid)) known.delete(xid);
    }
  }
}

// One per database handle (Kysely's adapter is shared by a handle, its plugins and transactions):
// two handles may reach two clusters, whose transaction ids have nothing in common.
const knownByHandle = new WeakMap<object, KnownTransactions>();

function knownTransactionsOf(db: Kysely<any>): KnownTransactions {
  const key = db.getExecutor().adapter;
  let known = knownByHandle.get(key);
  if (!known) knownByHandle.set(key, (known = new KnownTransactions()));
  return known;
}
