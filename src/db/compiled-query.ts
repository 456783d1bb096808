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
 * A read through the database createDb made takes its engine's direct way (engine.ts): at once on
 * SQLite (db/sqlite/statements.ts `readNow`), straight to a pooled connection on PostgreSQL
 * (db/postgres/direct-read.ts), its rows named as Kysely's plugins would; a read through a
 * transaction, or any other instance, goes through Kysely.
 */
import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import { engineOf } from './engine.js';

const PLACEHOLDER = Symbol('compiled-query placeholder');

interface Placeholder {
  [PLACEHOLDER]: string;
}

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === 'object' && value !== null && PLACEHOLDER in value;
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
      // Only the instance createDb made reads directly: a transaction's reads go through its connection.
      const engine = engineOf(db);
      const rows = engine?.db === db ? engine.directRead?.(query.sql, parameters) : undefined;
      // SQLite's rows as they are (no await: no extra turn of the microtask queue); PostgreSQL's promise adopted.
      if (rows !== undefined) return rows as Row[] | Promise<Row[]>;
      // Kysely's executeQuery still runs the plugins on the result (CamelCasePlugin's names).
      return (await db.executeQuery<Row>({ ...query, parameters })).rows;
    },
  };
}
