/**
 * Rows named as Kysely's CamelCasePlugin names them, for the compiled reads that skip Kysely's own
 * way (compiled-query.ts): each column's name and each read's layout worked out once.
 */
import { CamelCasePlugin } from 'kysely';

/** Kysely's CamelCasePlugin, whose naming of a row direct reads use too (compiled-query.ts). */
export class ColumnNames extends CamelCasePlugin {
  /** Each column's name, worked out once: the service's columns are a few dozen. */
  readonly #names = new Map<string, string>();

  rowNamed(row: Record<string, unknown>): Record<string, unknown> {
    const named: Record<string, unknown> = {};
    for (const column of Object.keys(row)) {
      const value = row[column];
      // A value with names of its own (JSON, arrays of it) is named the plugin's way, nested names included.
      if (typeof value === 'object' && value !== null) return this.mapRow(row);
      named[this.#nameOf(column)] = value;
    }
    return named;
  }

  /** Rows given as arrays of values in the columns' order (pg's `rowMode: 'array'`), named as rowNamed names pg's objects. */
  rowsNamed(columns: readonly string[], rows: readonly unknown[][]): Record<string, unknown>[] {
    const { kept, names, at } = this.#layoutOf(columns);
    return rows.map((values) => {
      const named: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const value = values[at[i]!];
        if (typeof value === 'object' && value !== null) return this.mapRow(Object.fromEntries(kept.map((column, j) => [column, values[at[j]!]])));
        named[names[i]!] = value;
      }
      return named;
    });
  }

  /** Each set of columns' layout, worked out once: the compiled reads' are few. */
  readonly #layouts = new Map<string, { kept: string[]; names: string[]; at: number[] }>();

  #layoutOf(columns: readonly string[]): { kept: string[]; names: string[]; at: number[] } {
    const key = columns.join('\0');
    let layout = this.#layouts.get(key);
    if (layout === undefined) {
      // The keys pg's object would have, in its order (integer-like names first), the last of equal names winning.
      const positions = Object.fromEntries(columns.map((column, i) => [column, i]));
      const kept = Object.keys(positions);
      layout = { kept, names: kept.map((column) => this.#nameOf(column)), at: kept.map((column) => positions[column]!) };
      if (this.#layouts.size < 1000) this.#layouts.set(key, layout);
    }
    return layout;
  }

  #nameOf(column: string): string {
    let name = this.#names.get(column);
    if (name === undefined) {
      name = this.camelCase(column);
      if (this.#names.size < 1000) this.#names.set(column, name);
    }
    return name;
  }
}
