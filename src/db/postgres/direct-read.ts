/**
 * One statement on a pooled connection of its own, outside any transaction: the way of the
 * compiled reads (compiled-query.ts), taken by nearly every request. The steps of the driver's
 * acquireConnection and PoolConnection.execute (driver.ts), on pg's callbacks with one promise:
 * every promise layer costs on every read (docs/performance.md). The same deadline (deadline.ts)
 * and the same treatment of a lost link (link.ts); a refusal of the prepared form is met as
 * runStatement meets it (prepareAgain). Rows come as arrays (pg's `rowMode: 'array'`), named once
 * per read by column-names.ts.
 */
import type pg from 'pg';
import { deadlineError, raceDeadline, startBudget } from './deadline.js';
import { alreadyClosed, closeLink, connectFailure, dropped, endsSession, failureOn, isLost, watchLink } from './link.js';
import { isRefusedPrepared, prepareAgain, statementNameOf } from './prepared-statements.js';

export function readDirect(pool: pg.Pool, budgetMs: number, text: string, parameters: readonly unknown[]): Promise<RowsAsArrays> {
  const budget = startBudget(budgetMs);
  const values = parameters as unknown[];
  return new Promise((resolve, reject) => {
    pool.connect((connectError, client) => {
      if (connectError || !client) return reject(connectFailure(connectError ?? new Error('no connection'), pool, budgetMs));
      let released = false;
      const release = (drop: boolean) => {
        if (released) return;
        released = true;
        client.release(drop ? dropped() : undefined);
      };
      // The callbacks run inside pg's socket handlers: whatever they throw is the read's failure.
      const failed = (error: unknown) => {
        release(true);
        reject(asError(error));
      };
      try {
        watchLink(client);
        if (isLost(client)) return failed(alreadyClosed());
        let settled = false;
        const timer =
          budget.budgetMs === Infinity
            ? undefined
            : setTimeout(() => {
                settled = true;
                closeLink(client);
                failed(deadlineError(budget));
              }, budget.remainingMs());
        const name = values.length === 0 ? undefined : statementNameOf(text);
        const statement = { text, values, name, rowMode: 'array' as const };
        client.query(statement, (error: (Error & { code?: unknown }) | null, result: pg.QueryResult<unknown[]>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          try {
            if (!error) {
              release(false);
              return resolve(rowsAsArrays(result));
            }
            if (name !== undefined && isRefusedPrepared(error)) {
              // Outside a transaction: prepared anew on this connection, within what is left of the budget.
              const race = <T>(work: Promise<T>) => raceDeadline(work, budget, () => closeLink(client));
              return void prepareAgain<unknown[]>(client, { ...statement, name }, error, race).then(
                (again) => {
                  release(false);
                  try {
                    resolve(rowsAsArrays(again));
                  } catch (thrown) {
                    reject(asError(thrown));
                  }
                },
                (again: unknown) => failed(failureOn(client, again)),
              );
            }
            // Told before the release, which may end the connection.
            const failure = failureOn(client, error);
            // A statement with no server answer (pg could not send its values) leaves its name in doubt.
            release(isLost(client) || (name !== undefined && !error.code) || endsSession(error));
            reject(failure);
          } catch (thrown) {
            failed(thrown);
          }
        });
      } catch (thrown) {
        failed(thrown);
      }
    });
  });
}

function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/** A read's rows as arrays of values, in the order of its columns. */
export interface RowsAsArrays {
  columns: string[];
  rows: unknown[][];
}

/** A text of several statements (the simple protocol, without parameters) answers the last one's rows, as Kysely's way does. */
function rowsAsArrays(answer: pg.QueryResult<unknown[]> | Array<pg.QueryResult<unknown[]>>): RowsAsArrays {
  const result = Array.isArray(answer) ? answer.at(-1) : answer;
  if (!result) return { columns: [], rows: [] };
  return { columns: result.fields.map((field) => field.name), rows: result.rows };
}
