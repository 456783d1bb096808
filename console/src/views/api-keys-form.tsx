/**
 * Making an API key: "Name", its scopes (checkboxes; a scope the signed-in key lacks cannot be
 * given, as the API refuses it) and an optional "Expires", then "Create". The answer carries the
 * key itself, which the caller shows once.
 */
import { useState } from 'preact/hooks';
import { answer, ConsoleError, newIdempotencyKey } from '../api.js';
import { Field, Problem } from '../components.js';
import { lackingScope, useSession } from '../session.js';
import { ArrivingHeading } from '../shown-once.js';
import { type IssuedApiKey, SCOPES } from './api-keys-types.js';

/** The body field each form field stands for, as the API's `details` name them. */
const FIELDS = { name: 'body.name', scopes: 'body.scopes', expiresAt: 'body.expiresAt' } as const;

/** A `datetime-local` value (the reader's local time) as the API's RFC 3339 UTC time; as typed when it is no time. */
function expiryValue(local: string): string | undefined {
  if (local === '') return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? local : time.toISOString();
}

export function ApiKeyForm(props: { onCreated: (key: IssuedApiKey) => void; onCancel: () => void }) {
  const { client, identity } = useSession();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  /** One Idempotency-Key for this form's create, kept across its retries. */
  const [idempotencyKey] = useState(newIdempotencyKey);

  const problems = error instanceof ConsoleError ? error.details : [];
  const problemAt = (field: string) =>
    problems
      .filter((problem) => problem.field === field || problem.field.startsWith(`${field}/`))
      .map((problem) => problem.message)
      .join('; ') || undefined;
  const shownByField = problems.length > 0 && problems.every((problem) => Object.values(FIELDS).some((field) => problem.field.startsWith(field)));
  const scopesProblem = problemAt(FIELDS.scopes);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const expiresAt = expiryValue(expires);
    const body = { name, scopes: SCOPES.filter((scope) => scopes.includes(scope)), ...(expiresAt ? { expiresAt } : {}) };
    try {
      const created = await answer(client.raw.POST('/api-keys', { body, headers: { 'idempotency-key': idempotencyKey } }));
      props.onCreated(created.data);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (scope: string, on: boolean) => setScopes(on ? [...scopes, scope] : scopes.filter((chosen) => chosen !== scope));

  return (
    <section class="panel" aria-labelledby="key-form-title">
      <ArrivingHeading id="key-form-title">Create an API key</ArrivingHeading>
      <form onSubmit={(event) => void create(event)} noValidate>
        <Field label="Name" problem={problemAt(FIELDS.name)}>
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={describedBy ? true : undefined}
              value={name}
              onInput={(event) => setName(event.currentTarget.value)}
            />
          )}
        </Field>
        <fieldset class="choices" aria-describedby={scopesProblem ? 'key-scopes-problem' : undefined}>
          <legend>Scopes</legend>
          {SCOPES.map((scope) => {
            const lacking = lackingScope(identity, scope);
            return (
              <div class="check" key={scope}>
                <input
                  id={`key-scope-${scope}`}
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  disabled={Boolean(lacking)}
                  aria-describedby={lacking ? `key-scope-${scope}-note` : undefined}
                  onChange={(event) => toggle(scope, event.currentTarget.checked)}
                />
                <label for={`key-scope-${scope}`}>{scope}</label>
                {lacking && (
                  <span class="scope-note" id={`key-scope-${scope}-note`}>
                    {lacking}
                  </span>
                )}
              </div>
            );
          })}
          {scopesProblem && (
            <p class="problem" id="key-scopes-problem">
              {scopesProblem}
            </p>
          )}
        </fieldset>
        <Field label="Expires (optional)" problem={problemAt(FIELDS.expiresAt)}>
          {({ id, describedBy }) => (
            <input
              id={id}
              type="datetime-local"
              aria-describedby={describedBy}
              aria-invalid={describedBy ? true : undefined}
              value={expires}
              onInput={(event) => setExpires(event.currentTarget.value)}
            />
          )}
        </Field>
        <Problem error={shownByField ? undefined : error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Create
          </button>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
