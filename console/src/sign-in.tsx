/** Signing in with an API key: checked against the service before anything is kept. */
import { useState } from 'preact/hooks';
import { ConsoleError } from './api.js';
import { Field, Problem } from './components.js';
import { identify, keepKey } from './session.js';

export function SignIn(props: { onSignedIn: (key: string, found: Awaited<ReturnType<typeof identify>>) => void; notice?: string | undefined }) {
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const found = await identify(key.trim());
      keepKey(key.trim(), remember);
      props.onSignedIn(key.trim(), found);
    } catch (caught) {
      setError(
        caught instanceof ConsoleError && caught.status === 401
          ? new Error(`That API key was not accepted: it is wrong, expired or revoked (${caught.message}).`)
          : caught,
      );
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Animal store console</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form onSubmit={(event) => void submit(event)}>
        <Field label="API key">
          {({ id }) => (
            <input id={id} type="password" autocomplete="off" spellcheck={false} required value={key} onInput={(event) => setKey(event.currentTarget.value)} />
          )}
        </Field>
        <div class="check">
          <input id="remember" type="checkbox" checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
          <label for="remember">Remember on this device</label>
        </div>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <Problem error={error} />
      </form>
      <p class="hint">
        An operator makes a key with <code>animal-store keys create --name NAME</code>. It is kept in this tab only, unless you tick “Remember on this device”.
      </p>
    </main>
  );
}
