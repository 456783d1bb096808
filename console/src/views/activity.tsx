/**
 * Activity: the store's events as they happen, newest first. It follows the feed with the client's
 * event iterator (long polls on GET /v1/events, so the Authorization header goes along, which the
 * browser's EventSource cannot send) from a cursor of the feed's present; after each event it keeps
 * that event's cursor, so after a network drop, or "Pause" then "Resume", it continues from there
 * with nothing missed. A type filter starts again from the present.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { AnimalStoreError, type Event as FeedEvent, type EventTypeFilter } from '@animal-store/client';
import { EVENT_TYPE_GROUPS, EVENT_TYPES } from '../../../src/events/events.types.js';
import { answer, type Client, messageOf, nextCursorOf } from '../api.js';
import { Field } from '../components.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';

/** Events kept on the page; older ones leave it. */
const SHOWN = 200;
/** The longest wait before trying again after a failure (doubling from a second). */
const MAX_RETRY_MS = 10_000;

/** A cursor at the feed's present for these types: only what happens from now on follows it. */
async function presentCursor(client: Client, types: EventTypeFilter[] | undefined, signal: AbortSignal): Promise<string> {
  const { response } = await answer(
    client.raw.GET('/events', {
      params: { query: { start: 'latest', limit: 1, ...(types ? { type: types } : {}) } },
      headers: { accept: 'application/json' },
      signal,
    }),
  );
  const cursor = nextCursorOf(response.headers.get('link'));
  if (!cursor) throw new Error('the events feed answered without its Link cursor');
  return cursor;
}

function subjectOf(event: FeedEvent) {
  const data = event.data as { id: number; name?: string; petId?: number };
  if (event.type.startsWith('pet.')) return <Link to={`/animals/${data.id}`}>{`Animal ${data.id}${data.name === undefined ? '' : `: ${data.name}`}`}</Link>;
  return (
    <>
      {`Order ${data.id} for `}
      <Link to={`/animals/${data.petId}`}>{`animal ${data.petId}`}</Link>
    </>
  );
}

export function ActivityView() {
  const { client } = useSession();
  const [filter, setFilter] = useState('');
  const [events, setEvents] = useState<FeedEvent[]>([]);
  const [paused, setPaused] = useState(false);
  const [state, setState] = useState<'connecting' | 'live' | 'paused' | 'retrying' | 'stopped'>('connecting');
  const [problem, setProblem] = useState('');
  /** Where the feed continues: after the last event shown, for the current filter. */
  const cursor = useRef<string | undefined>(undefined);

  // A new filter: a new feed, from the present.
  useEffect(() => {
    cursor.current = undefined;
    setEvents([]);
  }, [filter]);

  useEffect(() => {
    if (paused) {
      setState('paused');
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    const types = filter ? [filter as EventTypeFilter] : undefined;
    let wake = () => {};
    const retryNow = () => wake();
    window.addEventListener('online', retryNow);
    void (async () => {
      for (let failures = 0; !signal.aborted;) {
        try {
          setState('connecting');
          const start = cursor.current ?? (await presentCursor(client, types, signal));
          // A feed given up meanwhile (a new filter, "Pause") must not hand its cursor to the next one.
          if (signal.aborted) return;
          cursor.current = start;
          setState('live');
          setProblem('');
          for await (const item of client.events({ cursor: cursor.current, ...(types ? { types } : {}), signal })) {
            // An answer that arrived as this feed was given up belongs to no feed now shown.
            if (signal.aborted) return;
            cursor.current = item.cursor;
            failures = 0;
            setEvents((shown) => [item.event, ...shown].slice(0, SHOWN));
          }
        } catch (caught) {
          if (signal.aborted) return;
          // A refusal (a key revoked, a scope lacking, a cursor expired) is told and not tried again; a failure to reach the service is.
          if (caught instanceof AnimalStoreError && caught.status >= 400 && caught.status < 500 && caught.status !== 429) {
            setState('stopped');
            setProblem(messageOf(caught));
            return;
          }
          failures += 1;
          setState('retrying');
          setProblem(messageOf(caught));
          // Wait before trying again, less when the browser says it is back online.
          await new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              resolve();
            };
            const timer = setTimeout(done, Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1)));
            wake = done;
            signal.addEventListener('abort', done, { once: true });
          });
        }
      }
    })();
    return () => {
      window.removeEventListener('online', retryNow);
      controller.abort();
    };
  }, [client, filter, paused]);

  const status =
    state === 'live'
      ? 'Live: new events appear as they happen.'
      : state === 'paused'
        ? 'Paused: "Resume" continues from the last event shown.'
        : state === 'retrying'
          ? `Connection lost (${problem}); trying again, from the last event shown.`
          : state === 'stopped'
            ? `Stopped: ${problem}`
            : 'Connecting…';

  return (
    <>
      <h1 tabIndex={-1}>Activity</h1>
      <div class="filters">
        <Field label="Type">
          {({ id }) => (
            <select
              id={id}
              value={filter}
              onChange={(event) => {
                // Not live again until the new feed has its cursor: what happens before that is not shown.
                if (!paused) setState('connecting');
                setFilter(event.currentTarget.value);
              }}
            >
              <option value="">Every type</option>
              {[...EVENT_TYPE_GROUPS, ...EVENT_TYPES].map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setPaused(!paused)}>
            {paused ? 'Resume' : 'Pause'}
          </button>
        </div>
      </div>
      <p class="feed-state" role="status" data-state={state}>
        {status}
      </p>
      <div class="table-wrap">
        <table>
          <caption>{events.length === 0 ? 'No event yet since this page opened.' : 'Events, newest first'}</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Type</th>
              <th scope="col">What</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id}>
                <td>{event.id}</td>
                <td>{event.type}</td>
                <td>{subjectOf(event)}</td>
                <td>
                  <time dateTime={event.occurredAt}>{new Date(event.occurredAt).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
