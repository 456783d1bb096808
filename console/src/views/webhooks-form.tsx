/**
 * Adding a webhook endpoint, or changing one: "URL", "Description" (optional) and the event types,
 * chosen from the list the API accepts, then "Save". The API's messages show beside the field they
 * concern. An add answers the signing secret, which the caller shows once; a change is sent as a
 * JSON Merge Patch of the fields changed, and answers a new secret when it widened what the
 * endpoint receives.
 */
import { useState } from 'preact/hooks';
import { answer, newIdempotencyKey } from '../api.js';
import { Choices, fieldProblems, FormActions, TextField } from '../forms.js';
import { useSession } from '../session.js';
import { ArrivingHeading } from '../shown-once.js';
import { EVENT_FILTERS, type EventFilter, patchEndpoint, type UpdatedWebhookEndpoint, type WebhookEndpoint } from './webhooks-types.js';

/** The body field each form field stands for, as the API's `details` name them. */
const FIELDS = { url: 'body.url', events: 'body.events', description: 'body.description' } as const;

const sameEvents = (one: readonly string[], other: readonly string[]) => one.length === other.length && one.every((filter) => other.includes(filter));

/** `endpoint` given: the form changes it; otherwise it adds one. */
export function WebhookForm(props: { endpoint?: WebhookEndpoint; onSaved: (endpoint: UpdatedWebhookEndpoint) => void; onCancel: () => void }) {
  const { client } = useSession();
  const { endpoint } = props;
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<EventFilter[]>(endpoint ? EVENT_FILTERS.filter((filter) => endpoint.events.includes(filter)) : []);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  /** One Idempotency-Key per body sent: a retry of the same add or change reuses it, a changed form gets a new one. */
  const [sent] = useState(() => new Map<string, string>());
  const keyFor = (body: object) => {
    const text = JSON.stringify(body);
    if (!sent.has(text)) sent.set(text, newIdempotencyKey());
    return sent.get(text)!;
  };
  const problems = fieldProblems(error, Object.values(FIELDS));

  const add = () => {
    const body = { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) };
    return answer(client.raw.POST('/webhook-endpoints', { body, headers: { 'idempotency-key': keyFor(body) } }));
  };
  const change = (before: WebhookEndpoint) => {
    const patch = {
      ...(url.trim() === before.url ? {} : { url: url.trim() }),
      ...(sameEvents(events, before.events) ? {} : { events }),
      ...(description === (before.description ?? '') || description.trim() === (before.description ?? '') ? {} : { description: description.trim() || null }),
    };
    if (Object.keys(patch).length === 0) throw new Error('Nothing to save: change the URL, the description or the event types first.');
    return patchEndpoint(client, before.id, patch, keyFor({ id: before.id, ...patch }));
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const saved = await (endpoint ? change(endpoint) : add());
      props.onSaved(saved.data);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="webhook-form-title">
      <ArrivingHeading id="webhook-form-title">{endpoint ? `Edit endpoint ${endpoint.id}` : 'Add a webhook endpoint'}</ArrivingHeading>
      <form onSubmit={(event) => void save(event)} noValidate>
        <TextField label="URL" type="url" inputMode="url" spellcheck={false} problem={problems.at(FIELDS.url)} value={url} onValue={setUrl} />
        <TextField label="Description (optional)" problem={problems.at(FIELDS.description)} value={description} onValue={setDescription} />
        <Choices
          legend="Event types"
          options={EVENT_FILTERS}
          chosen={events}
          onChange={setEvents}
          problem={problems.at(FIELDS.events)}
          labelOf={(filter) => (filter.endsWith('.*') ? `${filter} (every ${filter.slice(0, -2)} event)` : filter)}
        />
        <FormActions submit="Save" disabled={busy} problem={problems.unplaced} onCancel={props.onCancel} />
      </form>
    </section>
  );
}
