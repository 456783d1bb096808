/**
 * One webhook endpoint's page (its own address, /console/webhooks/ID): what it receives and its
 * status; "Enable" or "Disable", "Rotate secret" (the new secret shown this once), "Send test
 * event"; then its deliveries (webhooks-deliveries.tsx).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { answer, newIdempotencyKey } from '../api.js';
import { Loading, Problem, ScopedButton } from '../components.js';
import { Link } from '../router.js';
import { lackingScope, useSession } from '../session.js';
import { ArrivingHeading, ShownOnce, Time } from '../shown-once.js';
import type { ViewProps } from '../views.js';
import { WebhookDeliveries } from './webhooks-deliveries.js';
import { eventsText, patchEndpoint, type WebhookEndpoint } from './webhooks-types.js';

export function WebhookEndpointView(props: ViewProps) {
  const { client, identity } = useSession();
  const cannotRead = lackingScope(identity, 'webhooks:read');
  const endpointId = Number(props.params.id);
  const [endpoint, setEndpoint] = useState<WebhookEndpoint | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [actionError, setActionError] = useState<unknown>(undefined);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState('');
  /** An action is running: another click waits for it (the buttons stay enabled, so the focus stays on them). */
  const running = useRef(false);
  /** Counts the sends (a test, a status change) after which the deliveries are read again. */
  const [sends, setSends] = useState(0);

  useEffect(() => {
    if (cannotRead) return;
    const controller = new AbortController();
    answer(client.raw.GET('/webhook-endpoints/{endpointId}', { params: { path: { endpointId } }, signal: controller.signal }))
      .then(({ data }) => setEndpoint(data))
      .catch((caught: unknown) => controller.signal.aborted || setError(caught));
    return () => controller.abort();
  }, [client, endpointId, cannotRead]);

  /** Runs one action, its refusal shown in words. */
  const act = async (action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setActionError(undefined);
    setNotice('');
    try {
      await action();
    } catch (caught) {
      setActionError(caught);
    } finally {
      running.current = false;
    }
  };
  const setStatus = (status: WebhookEndpoint['status']) =>
    act(async () => {
      const { data } = await patchEndpoint(client, endpointId, { status });
      setEndpoint(data);
      setNotice(status === 'enabled' ? 'Enabled: events from now on are delivered.' : 'Disabled: nothing more is sent to it.');
      setSends(sends + 1);
    });
  const rotate = () =>
    act(async () => {
      const { data } = await answer(
        client.raw.POST('/webhook-endpoints/{endpointId}/rotate-secret', {
          params: { path: { endpointId } },
          headers: { 'idempotency-key': newIdempotencyKey() },
        }),
      );
      const { secret: replacement, ...rest } = data;
      setEndpoint(rest);
      setSecret(replacement);
    });
  const sendTest = () =>
    act(async () => {
      const { data } = await answer(client.raw.POST('/webhook-endpoints/{endpointId}/test', { params: { path: { endpointId } } }));
      setNotice(`Test message sent: delivery ${data.id}.`);
      setSends(sends + 1);
    });

  const enabled = endpoint?.status === 'enabled';
  return (
    <>
      <p>
        <Link to="/webhooks">All webhook endpoints</Link>
      </p>
      <h1 tabIndex={-1}>Webhook endpoint {props.params.id}</h1>
      {cannotRead && <p class="scope-note">{cannotRead} The endpoint is not shown.</p>}
      <Problem error={error} />
      {!cannotRead && !endpoint && !error && <Loading what="the endpoint" />}
      {endpoint && (
        <>
          <dl class="facts">
            <dt>URL</dt>
            <dd>{endpoint.url}</dd>
            <dt>Description</dt>
            <dd>{endpoint.description ?? 'none'}</dd>
            <dt>Status</dt>
            <dd>{endpoint.disabledReason ? `${endpoint.status} (${endpoint.disabledReason})` : endpoint.status}</dd>
            <dt>Events asked for</dt>
            <dd>{eventsText(endpoint.events)}</dd>
            <dt>Events received</dt>
            <dd>{endpoint.allowedTypes.length > 0 ? eventsText(endpoint.allowedTypes) : 'none'}</dd>
            <dt>Added</dt>
            <dd>
              <Time value={endpoint.createdAt} />
            </dd>
            <dt>Changed</dt>
            <dd>
              <Time value={endpoint.updatedAt} />
            </dd>
            {endpoint.previousSecretExpiresAt && (
              <>
                <dt>Previous secret signs until</dt>
                <dd>
                  <Time value={endpoint.previousSecretExpiresAt} />
                </dd>
              </>
            )}
          </dl>
          <div class="actions">
            {enabled ? (
              <ScopedButton scope="webhooks:write" class="secondary" onClick={() => void setStatus('disabled')}>
                Disable
              </ScopedButton>
            ) : (
              <ScopedButton scope="webhooks:write" class="secondary" onClick={() => void setStatus('enabled')}>
                Enable
              </ScopedButton>
            )}
            <ScopedButton scope="webhooks:write" class="secondary" onClick={() => void rotate()}>
              Rotate secret
            </ScopedButton>
            <ScopedButton scope="webhooks:write" disabled={!enabled} onClick={() => void sendTest()}>
              Send test event
            </ScopedButton>
          </div>
          {!enabled && <p class="hint">The endpoint is disabled: enable it to send a test event or retry a delivery.</p>}
          <p class="notice" role="status">
            {notice}
          </p>
          <Problem error={actionError} />
          {secret && (
            <section class="panel" aria-labelledby="rotated-title" key={secret}>
              <ArrivingHeading id="rotated-title">New signing secret</ArrivingHeading>
              <ShownOnce label="Signing secret" value={secret}>
                Shown only now. The previous secret goes on signing beside it for 24 hours, so the receiver can switch without losing a message.
              </ShownOnce>
              <button type="button" class="secondary" onClick={() => setSecret(undefined)}>
                Done
              </button>
            </section>
          )}
          <WebhookDeliveries endpointId={endpointId} enabled={enabled} reads={sends} />
        </>
      )}
    </>
  );
}
