/**
 * Queries built and compiled by Kysely once, then run with new values. Building a query
 * (immutable nodes, frozen at each step) and compiling it cost more than running a page query
 * on SQLite; for the hot reads they are done once per database object (its dialect and
 * plugins), and only the parameter values change (docs/performance.md has the figures).
 *
 * The query is built with a placeholder object for each named value; after compiling, the
 * positions of the placeholders among the parameters say where each value goes. A placeholder
 * must reach the parameters unchanged, so use one only where the value is bound as is (a
 * comparison, a limit), never in a list whose length varies: that is a different statement.
 *
 * On a database that can run a read at once (SQLite: db/sqlite-statements.ts `readNow`), a read
 * runs so, its rows mapped as Kysely's plugins would; PostgreSQL's reads go straight to its
 * connections, whose rows come named already (db/postgres-connections.ts); anything else goes
 * through Kysely.
 */
import type { CompiledQuery, Compilable, Kysely } from 'kysely';

const PLACEHOLDER = Symbol('compiled-query placeholder');

interface Placeholder {
  [PLACEHOLDER]: string;
}

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === 'object' && value !== null && PLACEHOLDER in value;
}

/** Runs a compiled read (now, or sent at once) and answers its rows as Kysely would (plugins applied), or undefined to take Kysely's way. */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | Promise<unknown[]> | undefined;

/**
 * By the Kysely instance itself, not its adapter: a transaction or an instance with other plugins
 * is another instance, and takes Kysely's way.
 */
const directReads = new WeakMap<Kysely<any>, DirectRead>();

export function registerDirectReads(db: Kysely<any>, read: DirectRead): void {
  directReads.set(db, read);
}

export interface CompiledQueryOf<Values extends Record<string, unknown>, Row> {
  execute(db: Kysely<any>, values: Values): Promise<Row[]>;
}

export function compiledQuery<DB, Values extends Record<string, unknown>, Row>(
  build: (db: Kysely<DB>, value: <K extends keyof Values & string>(name: K) => Values[K]) => Compilable<Row>,
): CompiledQueryOf<Values, Row> {
  const compiledFor = new WeakMap<Kysely<any>, { query: CompiledQuery<Row>; slots: Array<string | undefined> }>();
  const compile = (db: Kysely<any>) => {
    const query = build(db as Kysely<DB>, (name) => ({ [PLACEHOLDER]: name }) as never).compile();
    const slots = query.parameters.map((parameter) => (isPlaceholder(parameter) ? parameter[PLACEHOLDER] : undefined));
    return { query, slots };
  };
  return {
    async execute(db, values) {
      let compiled = compiledFor.get(db);
      if (!compiled) {
        compiled = compile(db);
        compiledFor.set(db, compiled);
      }
      const { query, slots } = compiled;
      const parameters = query.parameters.map((constant, i) => {
        const slot = slots[i];
        return slot === undefined ? constant : values[slot];
      });
      const rows = directReads.get(db)?.(query.sql, parameters);
      // SQLite's rows as they are (no await: no extra turn of the microtask queue); PostgreSQL's promise adopted.
      if (rows !== undefined) return rows as Row[] | Promise<Row[]>;
      // Kysely's executeQuery still runs the plugins on the result (CamelCasePlugin's names).
      return (await db.executeQuery<Row>({ ...query, parameters })).rows;
    },
  };
}
