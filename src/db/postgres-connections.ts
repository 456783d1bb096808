/**
 * The service's PostgreSQL connections, over Postgres.js: a statement outside a transaction is
 * sent at once on a shared connection, behind any statements already in flight there
 * (pipelining: statements sent together leave in one write and their answers come back in one
 * read, which halves the socket work per request; docs/performance.md has the figures); a
 * transaction has a connection to itself from its begin to its end.
 *
 * Each connection is a one-connection Postgres.js instance (a lane) whose socket this module
 * opens, so that one operation's deadline (postgres-deadline.ts) can close exactly the connection
 * its statement is stuck on: everything queued behind that statement is stuck too.
 */
import net from 'node:net';
import postgres from 'postgres';
import { deadlineError, raceDeadline, type Budget } from './postgres-deadline.js';
import { toParameter } from './postgres-parameters.js';
import { isPrepared } from './postgres-prepared-statements.js';
import { postgresUrlOf } from './postgres-url.js';

export interface ConnectionsOptions {
  max: number;
  statementTimeoutMs: number;
  /** The name a row's key gets for a column (the CamelCasePlugin's), decided once per prepared statement. */
  columnNamed: (name: string) => string;
}

/** The connections now, read by /metrics. */
export interface PoolStats {
  /** Connections open (idle, running statements, or held by a transaction). */
  total: number;
  /** Open, with no statement in flight and no transaction. */
  idle: number;
  /** Statements and transactions waiting for a connection because every one is held by a transaction. */
  waiting: number;
  max: number;
}

export type Rows = postgres.RowList<postgres.Row[]>;

interface Lane {
  sql: postgres.Sql;
  socket: net.Socket | undefined;
  connected: boolean;
  /** Statements sent (or being sent) and not answered yet. */
  inFlight: number;
  /** Held by a transaction: no other statement is sent on it. */
  reserved: boolean;
  /** Closed by a deadline and replaced: nothing more is sent on it. */
  dead: boolean;
  /** How many times its socket closed: a transaction's connection that closed under it is not handed back. */
  closes: number;
}

/** A connection held by a transaction (its lane and the Postgres.js handle of the reservation). */
export interface Reserved {
  lane: Lane;
  sql: postgres.ReservedSql;
  closesAtStart: number;
}

interface Waiter {
  grant(lane: Lane): void;
  fail(error: Error): void;
}

export class PostgresConnections {
  readonly #lanes: Lane[];
  readonly #waiters = new Set<Waiter>();
  readonly #options: postgres.Options<Record<string, postgres.PostgresType>>;
  readonly #url: string;
  readonly #max: number;
  #ended = false;

  constructor(url: string, options: ConnectionsOptions, parseInt8: (text: string) => number) {
    const { url: plain, host, ssl } = postgresUrlOf(url);
    this.#url = plain;
    this.#max = options.max;
    const seconds = options.statementTimeoutMs / 1000;
    this.#options = {
      ...(host === undefined ? {} : { host }),
      ssl,
      max: 1,
      // The wait for a new connection is cut at the statement timeout (and the operation's budget).
      connect_timeout: seconds,
      // Idle connections close after ten seconds (as pg's pool did); none is closed for its age.
      idle_timeout: 10,
      max_lifetime: null,
      // A connection that failed is tried again at the next statement, without a growing pause.
      backoff: () => 0,
      keep_alive: 60,
      // Kysely sends `undefined` only where pg sent null.
      transform: { undefined: null, column: { from: options.columnNamed } },
      types: { int8: { to: 20, from: [20], serialize: (value: unknown) => String(value), parse: parseInt8 } },
      connection: {
        // A statement that runs too long is cancelled by the server. The service never pauses
        // inside a transaction on purpose; a session idle in one is a client gone silent (a
        // partition, a stalled link), whose row locks (a pet being ordered) would otherwise hold
        // every other instance's change of that row until TCP keepalive notices, hours on.
        statement_timeout: options.statementTimeoutMs,
        idle_in_transaction_session_timeout: options.statementTimeoutMs,
      },
      onnotice: () => {},
    };
    this.#lanes = Array.from({ length: options.max }, () => this.#newLane());
  }

  /** Runs one statement on a shared connection, pipelined behind those in flight there. */
  run(text: string, parameters: readonly unknown[], budget: Budget): Promise<Rows> {
    const lane = this.#pickLane();
    if (lane) return this.#send(lane, lane.sql, text, parameters, budget);
    return this.#waitForLane(budget).then((granted) => {
      granted.reserved = false;
      const sent = this.#send(granted, granted.sql, text, parameters, budget);
      this.#grantWaiters();
      return sent;
    });
  }

  /** Runs one statement on a transaction's connection. */
  runReserved(reserved: Reserved, text: string, parameters: readonly unknown[], budget: Budget): Promise<Rows> {
    // Postgres.js would write on the closed socket of a reservation (an uncaught TypeError).
    if (this.isClosed(reserved)) return Promise.reject(closedError('the transaction\'s connection was closed'));
    return this.#send(reserved.lane, reserved.sql, text, parameters, budget);
  }

  /** A connection for a transaction, within the operation's budget. */
  async reserve(budget: Budget): Promise<Reserved> {
    const lane = this.#pickLane() ?? (await this.#waitForLane(budget));
    lane.reserved = true;
    const closesAtStart = lane.closes;
    const pending = lane.sql.reserve();
    try {
      const sql = await raceDeadline(pending, budget, () => this.#close(lane));
      return { lane, sql, closesAtStart };
    } catch (error) {
      // A reservation granted after its deadline is given back.
      void pending.then((sql) => sql.release(), () => {});
      if (!lane.dead) {
        lane.reserved = false;
        this.#grantWaiters();
      }
      throw error;
    }
  }

  /** Hands a transaction's connection back; one that closed or timed out under it is replaced instead. */
  release(reserved: Reserved): void {
    const { lane } = reserved;
    if (lane.dead) return;
    if (lane.closes !== reserved.closesAtStart) {
      this.#close(lane);
      return;
    }
    reserved.sql.release();
    lane.reserved = false;
    this.#grantWaiters();
  }

  /** Whether a transaction's connection closed (or was closed by a deadline) while it held it. */
  isClosed(reserved: Reserved): boolean {
    return reserved.lane.dead || reserved.lane.closes !== reserved.closesAtStart;
  }

  stats(): PoolStats {
    let total = 0;
    let idle = 0;
    for (const lane of this.#lanes) {
      if (!lane.connected) continue;
      total += 1;
      if (lane.inFlight === 0 && !lane.reserved) idle += 1;
    }
    return { total, idle, waiting: this.#waiters.size, max: this.#max };
  }

  async end(): Promise<void> {
    this.#ended = true;
    const ended = new Error('the database connections were closed');
    for (const waiter of this.#waiters) waiter.fail(Object.assign(ended, { code: 'CONNECTION_ENDED' }));
    this.#waiters.clear();
    await Promise.all(this.#lanes.map((lane) => lane.sql.end({ timeout: 5 }).catch(() => {})));
  }

  #send(lane: Lane, sql: postgres.Sql | postgres.ReservedSql, text: string, parameters: readonly unknown[], budget: Budget): Promise<Rows> {
    if (lane.dead) return Promise.reject(closedError('the connection was closed after a deadline'));
    lane.inFlight += 1;
    const values = parameters.map(toParameter);
    // Statements without parameters (begin, commit, migrations' DDL) take the simple protocol,
    // which runs several statements in one text; the others are prepared once per connection.
    const query = values.length === 0 ? sql.unsafe(text).simple() : sql.unsafe(text, values as postgres.ParameterOrJSON<never>[], { prepare: isPrepared(text) });
    const answered = raceDeadline(query, budget, () => this.#close(lane));
    const done = () => {
      lane.inFlight -= 1;
    };
    answered.then(done, done);
    return answered as Promise<Rows>;
  }

  /** An idle connection, else one not opened yet, else the least busy one; none while every one is held by a transaction. */
  #pickLane(): Lane | undefined {
    let unopened: Lane | undefined;
    let leastBusy: Lane | undefined;
    for (const lane of this.#lanes) {
      if (lane.reserved) continue;
      if (lane.inFlight === 0 && lane.connected) return lane;
      if (!lane.socket) unopened ??= lane;
      else if (!leastBusy || lane.inFlight < leastBusy.inFlight) leastBusy = lane;
    }
    return unopened ?? leastBusy;
  }

  /** Every connection is held by a transaction: waits for one, within the budget. Granted reserved. */
  #waitForLane(budget: Budget): Promise<Lane> {
    if (this.#ended) return Promise.reject(Object.assign(new Error('the database connections were closed'), { code: 'CONNECTION_ENDED' }));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(deadlineError(budget));
      }, budget.remainingMs());
      const waiter: Waiter = {
        grant: (lane) => {
          clearTimeout(timer);
          lane.reserved = true;
          resolve(lane);
        },
        fail: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.#waiters.add(waiter);
    });
  }

  #grantWaiters(): void {
    for (const waiter of this.#waiters) {
      const lane = this.#pickLane();
      if (!lane) return;
      this.#waiters.delete(waiter);
      waiter.grant(lane);
    }
  }

  /** Closes a lane's connection at once (a statement on it passed its deadline) and puts a new lane in its place. */
  #close(lane: Lane): void {
    if (lane.dead) return;
    lane.dead = true;
    const index = this.#lanes.indexOf(lane);
    if (index >= 0) this.#lanes[index] = this.#newLane();
    void lane.sql.end({ timeout: 0 }).catch(() => {});
    lane.socket?.destroy();
    this.#grantWaiters();
  }

  #newLane(): Lane {
    const lane: Lane = { sql: undefined as unknown as postgres.Sql, socket: undefined, connected: false, inFlight: 0, reserved: false, dead: false, closes: 0 };
    // Postgres.js takes a socket factory (`socket`), which its typings leave out.
    const socket: SocketFactory = ({ host, port, path }) => {
      if (lane.dead) throw closedError('the connection was closed after a deadline');
      const socket = path ? net.connect(path) : net.connect({ host: host[0]!, port: port[0]! });
      Object.assign(socket, { host: host[0] });
      lane.socket = socket;
      lane.connected = false;
      socket.once('connect', () => (lane.connected = true));
      return socket;
    };
    // A close is learnt from Postgres.js, not from the socket: over TLS it drops the socket's
    // listeners and goes on over a TLS socket of its own, whose close a listener here never saw
    // (a transaction's connection closed under it was then written on: an uncaught TypeError).
    const onclose = () => {
      lane.connected = false;
      lane.closes += 1;
      lane.socket = undefined;
    };
    lane.sql = postgres(this.#url, { ...this.#options, socket, onclose } as postgres.Options<Record<string, postgres.PostgresType>>);
    return lane;
  }
}

function closedError(message: string): Error {
  return Object.assign(new Error(message), { code: 'CONNECTION_CLOSED' });
}

type SocketFactory = (options: { host: string[]; port: number[]; path: string | false }) => net.Socket;
