/**
 * Webhooks: the store's endpoints with their status (at most 100, so one page of 100 lists them
 * all), and "Add endpoint", whose signing secret is shown this once. Each endpoint's own page is
 * /webhooks/ID (webhooks-endpoint.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { answer } from '../api.js';
import { Loading, Problem, ScopedButton } from '../components.js';
import { Link } from '../router.js';
import { lackingScope, useSession } from '../session.js';
import { ArrivingHeading, ShownOnce } from '../shown-once.js';
import { WebhookForm } from './webhooks-form.js';
import { eventsText, type WebhookEndpoint, type WebhookEndpointWithSecret } from './webhooks-types.js';

/** The store's limit of endpoints: one page of this size holds them all. */
const ALL_ENDPOINTS = 100;

export function WebhooksView() {
  const { client, identity } = useSession();
  const cannotRead = lackingScope(identity, 'webhooks:read');
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<WebhookEndpointWithSecret | undefined>(undefined);
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    if (cannotRead) return;
    const controller = new AbortController();
    answer(client.raw.GET('/webhook-endpoints', { params: { query: { limit: ALL_ENDPOINTS } }, signal: controller.signal }))
      .then(({ data }) => setEndpoints(data))
      .catch((caught: unknown) => controller.signal.aborted || setError(caught));
    return () => controller.abort();
  }, [client, loads, cannotRead]);

  return (
    <>
      <div class="title-row">
        <h1 tabIndex={-1}>Webhooks</h1>
        <ScopedButton
          scope="webhooks:write"
          onClick={() => {
            setAdded(undefined);
            setAdding(true);
          }}
        >
          Add endpoint
        </ScopedButton>
      </div>
      {adding && (
        <WebhookForm
          onAdded={(endpoint) => {
            setAdding(false);
            setAdded(endpoint);
            setLoads(loads + 1);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {added && (
        <section class="panel" aria-labelledby="added-endpoint-title">
          <ArrivingHeading id="added-endpoint-title">Added endpoint {added.id}</ArrivingHeading>
          <p>
            <Link to={`/webhooks/${added.id}`}>{added.url}</Link> receives {eventsText(added.allowedTypes)}.
          </p>
          <ShownOnce label="Signing secret" value={added.secret}>
            Shown only now: give it to the receiver, which checks each message's signature with it. Lost, it can only be replaced ("Rotate secret").
          </ShownOnce>
          <button type="button" class="secondary" onClick={() => setAdded(undefined)}>
            Done
          </button>
        </section>
      )}
      {cannotRead && <p class="scope-note">{cannotRead} The endpoints are not shown.</p>}
      <Problem error={error} />
      {!cannotRead && !endpoints && !error && <Loading what="webhook endpoints" />}
      {endpoints && (
        <div class="table-wrap">
          <table>
            <caption>{endpoints.length === 0 ? 'No webhook endpoint yet.' : 'Webhook endpoints'}</caption>
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">URL</th>
                <th scope="col">Description</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td>{endpoint.id}</td>
                  <td>
                    <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                  </td>
                  <td>{endpoint.description ?? ''}</td>
                  <td>{eventsText(endpoint.events)}</td>
                  <td>{endpoint.disabledReason ? `${endpoint.status} (${endpoint.disabledReason})` : endpoint.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
