/** Kysely's PostgreSQL dialect with our driver (driver.ts) in place of Kysely's own. */
import { PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Dialect, type Kysely } from 'kysely';
import type { PostgresPoolDriver } from './driver.js';

export class PostgresPoolDialect implements Dialect {
  constructor(readonly driver: PostgresPoolDriver) {}
  createAdapter = () => new PostgresAdapter();
  createDriver = () => this.driver;
  createQueryCompiler = () => new PostgresQueryCompiler();
  createIntrospector = (db: Kysely<any>) => new PostgresIntrospector(db);
}
