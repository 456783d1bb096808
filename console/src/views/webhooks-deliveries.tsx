/**
 * One endpoint's deliveries, newest first: outcome, attempts, the last attempt's status code (or
 * why it failed) and duration, filtered by outcome (in the address, so a reload keeps it), each
 * with "Retry". While a delivery is pending with an attempt due soon, or for a while after a test or
 * a retry, the list reads itself again, so the outcome shows without a reload.
 */
import { useEffect, useState } from 'preact/hooks';
import { answer, type Page } from '../api.js';
import { Loading, Problem, ScopedButton } from '../components.js';
import { pageOf, placeOf, showMore, StatusFilter } from '../listing.js';
import { usePlace } from '../router.js';
import { useSession } from '../session.js';
import { Time } from '../shown-once.js';
import { DELIVERY_OUTCOMES, type DeliveryOutcome, type WebhookDelivery } from './webhooks-types.js';

const PAGE_SIZE = 25;
/** A pending delivery whose attempt is due within this is watched: the list is read again once it is due. */
const WATCH_AHEAD_MS = 30_000;
/** The list is read again no sooner than this after the last read, and no later than WATCH_AHEAD_MS. */
const REREAD_MIN_MS = 1_000;

/** When to read the list again for its pending deliveries to show their outcome; undefined: no attempt due soon. */
function rereadDelay(deliveries: WebhookDelivery[], now: number): number | undefined {
  const due = deliveries
    .filter((delivery) => delivery.state === 'pending')
    .map((delivery) => (delivery.nextAttemptAt === null ? now : Date.parse(delivery.nextAttemptAt)))
    .filter((at) => at - now < WATCH_AHEAD_MS);
  if (due.length === 0) return undefined;
  return Math.min(Math.max(Math.min(...due) - now + REREAD_MIN_MS, REREAD_MIN_MS), WATCH_AHEAD_MS);
}

function lastAttemptText(delivery: WebhookDelivery): { status: string; duration: string } {
  const last = delivery.attempts[0];
  if (!last) return { status: 'not sent yet', duration: '' };
  return { status: last.statusCode === null ? (last.error ?? 'no answer') : String(last.statusCode), duration: `${last.durationMs} ms` };
}

export function WebhookDeliveries(props: { endpointId: number; enabled: boolean; reads: number }) {
  const { client } = useSession();
  const { path, query } = usePlace();
  const outcome = (query.get('outcome') ?? '') as DeliveryOutcome | '';
  const [page, setPage] = useState<Page<WebhookDelivery> | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [retryError, setRetryError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState('');
  const [reads, setReads] = useState(0);
  /** Until when the list is read again every REREAD_MIN_MS after a send: its delivery may be hidden by the filter while pending. */
  const [watchUntil, setWatchUntil] = useState(0);
  const { endpointId } = props;

  useEffect(() => {
    if (props.reads > 0) setWatchUntil(Date.now() + WATCH_AHEAD_MS);
  }, [props.reads]);

  const read = (cursor: string | undefined, signal?: AbortSignal) =>
    answer(
      client.raw.GET('/webhook-endpoints/{endpointId}/deliveries', {
        params: { path: { endpointId }, query: { limit: PAGE_SIZE, ...(outcome ? { outcome } : {}), ...(cursor ? { cursor } : {}) } },
        ...(signal ? { signal } : {}),
      }),
    ).then(pageOf);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    read(undefined, controller.signal)
      .then((first) => {
        setError(undefined);
        setPage(first);
        const now = Date.now();
        const delay = rereadDelay(first.items, now) ?? (now < watchUntil ? REREAD_MIN_MS : undefined);
        if (delay !== undefined) timer = setTimeout(() => setReads((count) => count + 1), delay);
      })
      .catch((caught: unknown) => controller.signal.aborted || setError(caught));
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, endpointId, outcome, reads, watchUntil]);

  const retry = async (delivery: WebhookDelivery) => {
    setRetryError(undefined);
    setNotice('');
    try {
      await answer(
        client.raw.POST('/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry', { params: { path: { endpointId, deliveryId: delivery.id } } }),
      );
      setNotice(`Delivery ${delivery.id} is being sent again.`);
      setWatchUntil(Date.now() + WATCH_AHEAD_MS);
    } catch (caught) {
      setRetryError(caught);
    }
  };

  return (
    <section aria-labelledby="deliveries-title">
      <div class="title-row">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" class="secondary" onClick={() => setReads(reads + 1)}>
          Refresh
        </button>
      </div>
      <StatusFilter
        name="Deliveries"
        label="Outcome"
        any="Any outcome"
        values={DELIVERY_OUTCOMES}
        value={outcome}
        place={(value) => placeOf(path, { outcome: value })}
      />
      <p class="notice" role="status">
        {notice}
      </p>
      <Problem error={retryError} />
      <Problem error={error} />
      {!page && !error && <Loading what="deliveries" />}
      {page && (
        <>
          <div class="table-wrap">
            <table>
              <caption>{page.items.length === 0 ? 'No delivery matches.' : `Deliveries${outcome ? `, ${outcome}` : ''}, newest first`}</caption>
              <thead>
                <tr>
                  <th scope="col">Delivery</th>
                  <th scope="col">Event</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Status code</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Last attempt</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((delivery) => {
                  const last = lastAttemptText(delivery);
                  return (
                    <tr key={delivery.id}>
                      <td>{delivery.id}</td>
                      <td>{delivery.eventId === null ? delivery.eventType : `${delivery.eventType} (event ${delivery.eventId})`}</td>
                      <td>{delivery.state}</td>
                      <td>{delivery.attemptCount}</td>
                      <td>{last.status}</td>
                      <td>{last.duration}</td>
                      <td>
                        <Time value={delivery.lastAttemptAt} none="none yet" />
                      </td>
                      <td>
                        <ScopedButton
                          scope="webhooks:write"
                          class="secondary"
                          disabled={!props.enabled}
                          title={props.enabled ? undefined : 'Enable the endpoint first'}
                          onClick={() => void retry(delivery)}
                        >
                          Retry
                        </ScopedButton>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {page.next && (
            <button type="button" class="secondary" onClick={() => void showMore(page, read, setPage, setError)}>
              Show more deliveries
            </button>
          )}
        </>
      )}
    </section>
  );
}
