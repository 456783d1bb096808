/**
 * Kysely's PostgreSQL dialect with our driver (driver.ts) in place of Kysely's own, and the
 * Migrator's look at the tables confined to the store's own schema (introspector.ts).
 */
import { PostgresAdapter, PostgresQueryCompiler, type Dialect, type Kysely } from 'kysely';
import type { PostgresPoolDriver } from './driver.js';
import { OwnSchemaIntrospector } from './introspector.js';

export class PostgresPoolDialect implements Dialect {
  constructor(readonly driver: PostgresPoolDriver) {}
  createAdapter = () => new PostgresAdapter();
  createDriver = () => this.driver;
  createQueryCompiler = () => new PostgresQueryCompiler();
  createIntrospector = (db: Kysely<any>) => new OwnSchemaIntrospector(db);
}
