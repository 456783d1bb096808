/**
 * One deadline per PostgreSQL operation. The wait for a connection (pg's pool, pool.ts)
 * and the wait for the answer (driver.ts, direct-read.ts) share one budget: with separate timeouts the
 * waits added up (a request could wait the whole connection timeout for a connection that a
 * stalled query freed only at its own read timeout, then stall a whole read timeout itself). A
 * transaction's first statement gets what the wait for its connection left; each later one a
 * whole budget. A statement that passes its deadline closes the connection it was sent on: what
 * is stuck there stays stuck.
 */

/** Error code of an operation that got no answer within its budget; isDatabaseUnavailable reads it as 503. */
export const DEADLINE_CODE = 'OPERATION_DEADLINE';

export interface Budget {
  /** Milliseconds left, at least one (a timer of zero would fire before any answer could). */
  remainingMs(): number;
  readonly budgetMs: number;
}

/** A budget of `budgetMs` from now. */
export function startBudget(budgetMs: number, now: () => number = () => performance.now()): Budget {
  const deadline = now() + budgetMs;
  return { budgetMs, remainingMs: () => Math.max(1, Math.floor(deadline - now())) };
}

export function deadlineError(budget: Budget): Error {
  return Object.assign(new Error(`no answer from PostgreSQL within the operation's budget of ${budget.budgetMs} ms`), { code: DEADLINE_CODE });
}

/** Resolves or rejects as `work` does, or rejects at the budget's end and calls `expired` (which closes the connection). */
export function raceDeadline<T>(work: PromiseLike<T>, budget: Budget, expired: () => void): Promise<T> {
  // An unlimited budget (the migrations' connection) races nothing.
  if (budget.budgetMs === Infinity) return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(deadlineError(budget));
      expired();
    }, budget.remainingMs());
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: Error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
