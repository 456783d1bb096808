/**
 * API keys: every key of the store (revoked and expired ones too) with its name, prefix, scopes,
 * times and state; "Create key" (the key shown this once) and "Revoke", asked to "Confirm". All of
 * it needs `keys:manage`: without it the controls are disabled and say so.
 */
import { useEffect, useState } from 'preact/hooks';
import { answer, type Page } from '../api.js';
import { ConfirmButton, Loading, Problem, ScopedButton } from '../components.js';
import { pageOf, showMore } from '../listing.js';
import { lackingScope, useSession } from '../session.js';
import { ArrivingHeading, ShownOnce, Time } from '../shown-once.js';
import { ApiKeyForm } from './api-keys-form.js';
import type { ApiKey, IssuedApiKey } from './api-keys-types.js';

const PAGE_SIZE = 100;

export function ApiKeysView() {
  const { client, identity, signOut } = useSession();
  const cannotManage = lackingScope(identity, 'keys:manage');
  const [page, setPage] = useState<Page<ApiKey> | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<IssuedApiKey | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const [loads, setLoads] = useState(0);

  const read = (cursor: string | undefined, signal?: AbortSignal) =>
    answer(client.raw.GET('/api-keys', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, ...(signal ? { signal } : {}) })).then(pageOf);

  useEffect(() => {
    if (cannotManage) return;
    const controller = new AbortController();
    read(undefined, controller.signal)
      .then(setPage)
      .catch((caught: unknown) => controller.signal.aborted || setError(caught));
    return () => controller.abort();
  }, [client, loads, cannotManage]);

  return (
    <>
      <div class="title-row">
        <h1 tabIndex={-1}>API keys</h1>
        <ScopedButton
          scope="keys:manage"
          onClick={() => {
            setCreated(undefined);
            setCreating(true);
          }}
        >
          Create key
        </ScopedButton>
      </div>
      {creating && (
        <ApiKeyForm
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
            setLoads((count) => count + 1);
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      {created && (
        <section class="panel" aria-labelledby="created-key-title">
          <ArrivingHeading id="created-key-title">Created key {created.name}</ArrivingHeading>
          <ShownOnce label="API key" value={created.key}>
            Shown only now: the store keeps only its hash. Give it to whoever needs it; lost, it can only be replaced by a new one.
          </ShownOnce>
          <button type="button" class="secondary" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </section>
      )}
      <p class="notice" role="status">
        {notice}
      </p>
      {cannotManage && <p class="scope-note">{cannotManage} The keys are not shown.</p>}
      <Problem error={error} />
      {!cannotManage && !page && !error && <Loading what="API keys" />}
      {page && (
        <>
          <div class="table-wrap">
            <table>
              <caption>API keys, revoked and expired ones included</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((key) => (
                  <tr key={key.id}>
                    <td>
                      {key.name}
                      {key.id === identity.id && <span class="hint"> (this console's key)</span>}
                    </td>
                    <td>
                      <code>{key.prefix}</code>
                    </td>
                    <td>{key.scopes.join(' ')}</td>
                    <td>
                      <Time value={key.createdAt} />
                    </td>
                    <td>
                      <Time value={key.expiresAt} />
                    </td>
                    <td>
                      <Time value={key.lastUsedAt} />
                    </td>
                    <td>
                      {key.revokedAt ? (
                        <>
                          Revoked <Time value={key.revokedAt} />
                        </>
                      ) : (
                        <RevokeKey
                          apiKey={key}
                          own={key.id === identity.id}
                          onRevoked={() => {
                            // The console's own key: every call from now on would be refused, so the tab signs out now.
                            if (key.id === identity.id)
                              signOut(`You revoked ${key.name} (${key.prefix}), the key this console was signed in with. Sign in with another key.`);
                            else {
                              setNotice(`Revoked ${key.name} (${key.prefix}).`);
                              setLoads((count) => count + 1);
                            }
                          }}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {page.next && (
            <button type="button" class="secondary" onClick={() => void showMore(page, read, setPage, setError)}>
              Show more keys
            </button>
          )}
        </>
      )}
    </>
  );
}

/** "Revoke", then "Confirm": a key is revoked only once the person confirmed it. */
function RevokeKey(props: { apiKey: ApiKey; own: boolean; onRevoked: () => void }) {
  const { client } = useSession();
  const revoke = async () => {
    await answer(client.raw.DELETE('/api-keys/{keyId}', { params: { path: { keyId: props.apiKey.id } } }));
    props.onRevoked();
  };
  return (
    <ConfirmButton
      scope="keys:manage"
      label="Revoke"
      question={`Revoke ${props.apiKey.name}?`}
      warning={props.own ? 'It stops working at once, and this console signs out.' : 'It stops working at once.'}
      onConfirm={revoke}
    />
  );
}
