/**
 * Webhooks: the store's endpoints with their status (at most 100, so one page of 100 lists them
 * all); "Add endpoint", whose signing secret is shown this once; on each endpoint "Edit" (its URL,
 * description and event types) and "Remove", asked to "Confirm". Each endpoint's own page is
 * /webhooks/ID (webhooks-endpoint.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { answer } from '../api.js';
import { ConfirmButton, Loading, Problem, ScopedButton } from '../components.js';
import { Link } from '../router.js';
import { lackingScope, useSession } from '../session.js';
import { ArrivingHeading, ShownOnce } from '../shown-once.js';
import { WebhookForm } from './webhooks-form.js';
import { eventsText, type UpdatedWebhookEndpoint, type WebhookEndpoint } from './webhooks-types.js';

/** The store's limit of endpoints: one page of this size holds them all. */
const ALL_ENDPOINTS = 100;

/** A secret the API just answered, with why it came. */
interface NewSecret {
  endpoint: UpdatedWebhookEndpoint;
  secret: string;
  heading: string;
  hint: string;
}

export function WebhooksView() {
  const { client, identity } = useSession();
  const cannotRead = lackingScope(identity, 'webhooks:read');
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [form, setForm] = useState<{ kind: 'add' } | { kind: 'edit'; endpoint: WebhookEndpoint } | undefined>(undefined);
  const [shown, setShown] = useState<NewSecret | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    if (cannotRead) return;
    const controller = new AbortController();
    answer(client.raw.GET('/webhook-endpoints', { params: { query: { limit: ALL_ENDPOINTS } }, signal: controller.signal }))
      .then(({ data }) => setEndpoints(data))
      .catch((caught: unknown) => controller.signal.aborted || setError(caught));
    return () => controller.abort();
  }, [client, loads, cannotRead]);

  const open = (next: typeof form) => {
    setShown(undefined);
    setNotice('');
    setForm(next);
  };
  const saved = (endpoint: UpdatedWebhookEndpoint) => {
    const adding = form?.kind === 'add';
    setForm(undefined);
    setNotice(adding ? '' : `Saved endpoint ${endpoint.id}.`);
    if (endpoint.secret !== undefined)
      setShown({
        endpoint,
        secret: endpoint.secret,
        heading: adding ? `Added endpoint ${endpoint.id}` : `New signing secret of endpoint ${endpoint.id}`,
        hint: adding
          ? 'Shown only now: give it to the receiver, which checks each message\'s signature with it. Lost, it can only be replaced ("Rotate secret").'
          : 'Shown only now: the change widened the event types the endpoint receives, so its old secret signs nothing more. Give this one to the receiver.',
      });
    setLoads((count) => count + 1);
  };
  const remove = async (endpoint: WebhookEndpoint) => {
    await answer(client.raw.DELETE('/webhook-endpoints/{endpointId}', { params: { path: { endpointId: endpoint.id } } }));
    if (form?.kind === 'edit' && form.endpoint.id === endpoint.id) setForm(undefined);
    setNotice(`Removed endpoint ${endpoint.id} (${endpoint.url}).`);
    setLoads((count) => count + 1);
  };

  return (
    <>
      <div class="title-row">
        <h1 tabIndex={-1}>Webhooks</h1>
        <ScopedButton scope="webhooks:write" onClick={() => open({ kind: 'add' })}>
          Add endpoint
        </ScopedButton>
      </div>
      {form && (
        <WebhookForm
          key={form.kind === 'edit' ? form.endpoint.id : 'add'}
          {...(form.kind === 'edit' ? { endpoint: form.endpoint } : {})}
          onSaved={saved}
          onCancel={() => setForm(undefined)}
        />
      )}
      {shown && (
        <section class="panel" aria-labelledby="endpoint-secret-title">
          <ArrivingHeading id="endpoint-secret-title">{shown.heading}</ArrivingHeading>
          <p>
            <Link to={`/webhooks/${shown.endpoint.id}`}>{shown.endpoint.url}</Link> receives {eventsText(shown.endpoint.allowedTypes)}.
          </p>
          <ShownOnce label="Signing secret" value={shown.secret}>
            {shown.hint}
          </ShownOnce>
          <button type="button" class="secondary" onClick={() => setShown(undefined)}>
            Done
          </button>
        </section>
      )}
      <p class="notice" role="status">
        {notice}
      </p>
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
                <th scope="col">Actions</th>
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
                  <td class="row-actions">
                    <ScopedButton scope="webhooks:write" class="secondary" onClick={() => open({ kind: 'edit', endpoint })}>
                      Edit
                    </ScopedButton>
                    <ConfirmButton
                      scope="webhooks:write"
                      label="Remove"
                      question={`Remove endpoint ${endpoint.id}?`}
                      warning="Its deliveries go with it, and nothing more is sent to it."
                      onConfirm={() => remove(endpoint)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
