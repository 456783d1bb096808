/**
 * What Kysely's Migrator asks the database (does its bookkeeping table exist yet?), answered from
 * the connection's own schema (the first of its search_path, where the migrations write). Kysely's
 * PostgresIntrospector reads the columns of every schema in the database and looks each schema up
 * again by its name (has_schema_privilege, pg_get_serial_sequence) after the statement's snapshot
 * is taken: a schema dropped in between, another store's in the same database, fails that lookup
 * ("schema … does not exist"), and the migrations of this store with it.
 */
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  PostgresIntrospector,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  nullable: boolean;
  defaulted: boolean;
  type: string;
  typeschema: string;
  serial: boolean;
  comment: string | null;
}

export class OwnSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<any>;

  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  /** Every schema's name: one catalog read, no lookup by name. */
  getSchemas(): Promise<SchemaMetadata[]> {
    return new PostgresIntrospector(this.#db).getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`select c.relname as table, c.relkind as kind, ns.nspname as schema, a.attname as column,
        not a.attnotnull as nullable, a.atthasdef as defaulted, typ.typname as type, typns.nspname as typeschema,
        pg_get_serial_sequence(format('%I.%I', ns.nspname, c.relname), a.attname) is not null as serial,
        col_description(c.oid, a.attnum) as comment
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace typns on typns.oid = typ.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.#db);
    const internal = [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE];
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && internal.includes(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) tables.set(row.table, (table = { name: row.table, isView: row.kind === 'v', schema: row.schema, columns: [] }));
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.typeschema,
        isNullable: row.nullable,
        isAutoIncrementing: row.serial,
        hasDefaultValue: row.defaulted,
        comment: row.comment ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
