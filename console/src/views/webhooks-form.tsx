/**
 * Adding a webhook endpoint: "URL", "Description" (optional) and the event types, chosen from the
 * list the API accepts, then "Add endpoint". The API's messages show beside the field they concern;
 * the answer carries the signing secret, which the caller shows once.
 */
import { useState } from 'preact/hooks';
import { answer, ConsoleError, newIdempotencyKey } from '../api.js';
import { Field, Problem } from '../components.js';
import { useSession } from '../session.js';
import { ArrivingHeading } from '../shown-once.js';
import { EVENT_FILTERS, type WebhookEndpointWithSecret } from './webhooks-types.js';

/** The body field each form field stands for, as the API's `details` name them. */
const FIELDS = { url: 'body.url', events: 'body.events', description: 'body.description' } as const;

export function WebhookForm(props: { onAdded: (endpoint: WebhookEndpointWithSecret) => void; onCancel: () => void }) {
  const { client } = useSession();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  /** One Idempotency-Key for this form's add, kept across its retries. */
  const [idempotencyKey] = useState(newIdempotencyKey);

  const problems = error instanceof ConsoleError ? error.details : [];
  const problemAt = (field: string) =>
    problems
      .filter((problem) => problem.field === field || problem.field.startsWith(`${field}/`))
      .map((problem) => problem.message)
      .join('; ') || undefined;
  const shownByField = problems.length > 0 && problems.every((problem) => Object.values(FIELDS).some((field) => problem.field.startsWith(field)));

  const add = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const body = {
      url: url.trim(),
      events: EVENT_FILTERS.filter((filter) => events.includes(filter)),
      ...(description.trim() ? { description: description.trim() } : {}),
    };
    try {
      const added = await answer(client.raw.POST('/webhook-endpoints', { body, headers: { 'idempotency-key': idempotencyKey } }));
      props.onAdded(added.data);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (filter: string, on: boolean) => setEvents(on ? [...events, filter] : events.filter((chosen) => chosen !== filter));
  const eventsProblem = problemAt(FIELDS.events);

  return (
    <section class="panel" aria-labelledby="webhook-form-title">
      <ArrivingHeading id="webhook-form-title">Add a webhook endpoint</ArrivingHeading>
      <form onSubmit={(event) => void add(event)} noValidate>
        <Field label="URL" problem={problemAt(FIELDS.url)}>
          {({ id, describedBy }) => (
            <input
              id={id}
              type="url"
              inputMode="url"
              spellcheck={false}
              aria-describedby={describedBy}
              aria-invalid={describedBy ? true : undefined}
              value={url}
              onInput={(event) => setUrl(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Description (optional)" problem={problemAt(FIELDS.description)}>
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={describedBy ? true : undefined}
              value={description}
              onInput={(event) => setDescription(event.currentTarget.value)}
            />
          )}
        </Field>
        <fieldset class="choices" aria-describedby={eventsProblem ? 'webhook-events-problem' : undefined}>
          <legend>Event types</legend>
          {EVENT_FILTERS.map((filter) => (
            <div class="check" key={filter}>
              <input
                id={`webhook-event-${filter}`}
                type="checkbox"
                checked={events.includes(filter)}
                onChange={(event) => toggle(filter, event.currentTarget.checked)}
              />
              <label for={`webhook-event-${filter}`}>{filter.endsWith('.*') ? `${filter} (every ${filter.slice(0, -2)} event)` : filter}</label>
            </div>
          ))}
          {eventsProblem && (
            <p class="problem" id="webhook-events-problem">
              {eventsProblem}
            </p>
          )}
        </fieldset>
        <Problem error={shownByField ? undefined : error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Save
          </button>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
