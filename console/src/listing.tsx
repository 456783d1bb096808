/**
 * A listing page by page, the way the API pages: the page at `cursor` (in the view's address, so a
 * reload shows the same page), "Next page" by the answer's Link cursor, and "Previous page" by the
 * cursors walked through in this visit (the API has none backwards); and its filter by status.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { nextCursorOf, type Page } from './api.js';
import { Field } from './components.js';
import { navigate } from './router.js';

/** One page: `load` answers its items and its Link header; it runs again whenever a value of `deps` changes or `reload()` is called. */
export function usePage<T>(
  load: (signal: AbortSignal) => Promise<{ data: T[]; response: Response }>,
  deps: unknown[],
): { page: Page<T> | undefined; error: unknown; reload: () => void } {
  const [page, setPage] = useState<Page<T> | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    load(controller.signal)
      .then((answered) => setPage(pageOf(answered)))
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setError(caught);
      });
    return () => controller.abort();
  }, [...deps, loads]);
  return { page, error, reload: () => setLoads((count) => count + 1) };
}

/** The page an answer carries: its items, and the cursor of its Link header. */
export function pageOf<T>(answered: { data: T[]; response: Response }): Page<T> {
  return { items: answered.data, next: nextCursorOf(answered.response.headers.get('link')) };
}

/** "Show more": the page after `page`, read by `read`, appended to it; a failure goes to `failed`. */
export async function showMore<T>(
  page: Page<T> | undefined,
  read: (cursor: string) => Promise<Page<T>>,
  shown: (page: Page<T>) => void,
  failed: (error: unknown) => void,
): Promise<void> {
  if (!page?.next) return;
  try {
    const more = await read(page.next);
    shown({ items: [...page.items, ...more.items], next: more.next });
  } catch (caught) {
    failed(caught);
  }
}

/** The address of a listing view with its filters and cursor (empty values left out). */
export function placeOf(path: string, values: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** "Previous page" and "Next page" of a listing at `place(cursor)`. */
export function Pager(props: { cursor: string | undefined; next: string | undefined; place: (cursor: string | undefined) => string }) {
  const [earlier, setEarlier] = useState<(string | undefined)[]>([]);
  return (
    <nav class="pager" aria-label="Pages">
      <button
        type="button"
        class="secondary"
        disabled={!props.cursor}
        onClick={() => {
          setEarlier(earlier.slice(0, -1));
          navigate(props.place(earlier.at(-1)));
        }}
      >
        Previous page
      </button>
      <button
        type="button"
        class="secondary"
        disabled={!props.next}
        onClick={() => {
          setEarlier([...earlier, props.cursor]);
          navigate(props.place(props.next));
        }}
      >
        Next page
      </button>
    </nav>
  );
}

/**
 * A listing's filter by status (or outcome): the choice goes into the view's address, replacing it,
 * so a reload keeps it and "Back" leaves the view. Other filters of the listing may follow it.
 */
export function StatusFilter(props: {
  label: string;
  /** The option that filters nothing ("Any status"). */
  any: string;
  values: readonly string[];
  value: string;
  /** The address of the listing filtered by `value` ('' for any). */
  place: (value: string) => string;
  /** The search's name, where the page has more than one. */
  name?: string;
  children?: ComponentChildren;
}) {
  return (
    <form class="filters" role="search" aria-label={props.name} onSubmit={(event) => event.preventDefault()}>
      <Field label={props.label}>
        {({ id }) => (
          <select id={id} value={props.value} onChange={(event) => navigate(props.place(event.currentTarget.value), { replace: true })}>
            <option value="">{props.any}</option>
            {props.values.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        )}
      </Field>
      {props.children}
    </form>
  );
}
