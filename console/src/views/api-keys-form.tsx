/**
 * Making an API key: "Name", its scopes (checkboxes; a scope the signed-in key lacks cannot be
 * given, as the API refuses it) and an optional "Expires", then "Create". The answer carries the
 * key itself, which the caller shows once.
 */
import { useState } from 'preact/hooks';
import { answer, newIdempotencyKey } from '../api.js';
import { Choices, fieldProblems, FormActions, TextField } from '../forms.js';
import { lackingScope, useSession } from '../session.js';
import { ArrivingHeading } from '../shown-once.js';
import { type IssuedApiKey, type Scope, SCOPES } from './api-keys-types.js';

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
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expires, setExpires] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  /** One Idempotency-Key for this form's create, kept across its retries. */
  const [idempotencyKey] = useState(newIdempotencyKey);

  const problems = fieldProblems(error, Object.values(FIELDS));

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const expiresAt = expiryValue(expires);
    const body = { name, scopes, ...(expiresAt ? { expiresAt } : {}) };
    try {
      const created = await answer(client.raw.POST('/api-keys', { body, headers: { 'idempotency-key': idempotencyKey } }));
      props.onCreated(created.data);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="key-form-title">
      <ArrivingHeading id="key-form-title">Create an API key</ArrivingHeading>
      <form onSubmit={(event) => void create(event)} noValidate>
        <TextField label="Name" problem={problems.at(FIELDS.name)} value={name} onValue={setName} />
        <Choices
          legend="Scopes"
          options={SCOPES}
          chosen={scopes}
          onChange={setScopes}
          problem={problems.at(FIELDS.scopes)}
          lacking={(scope) => lackingScope(identity, scope)}
        />
        <TextField label="Expires (optional)" type="datetime-local" problem={problems.at(FIELDS.expiresAt)} value={expires} onValue={setExpires} />
        <FormActions submit="Create" disabled={busy} problem={problems.unplaced} onCancel={props.onCancel} />
      </form>
    </section>
  );
}
