/**
 * The console's frame: signing in, then the navigation, "Sign out" and the view of the address.
 * A key kept from earlier in this tab (or remembered on this device) is checked again at start.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConsoleError, KEY_REFUSED, messageOf } from './api.js';
import { Loading } from './components.js';
import { Link, matchPath, navigate, usePlace } from './router.js';
import { forgetKey, forgottenElsewhere, identify, type Session, SessionContext, storedKey } from './session.js';
import { SignIn } from './sign-in.js';
import { HOME, NAVIGATION, VIEWS } from './views.js';

export function App() {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [restoring, setRestoring] = useState(() => storedKey() !== undefined);

  const [notice, setNotice] = useState<string | undefined>(undefined);
  const current = useRef<Session | undefined>(undefined);
  current.current = session;

  const signOut = (why?: string) => {
    forgetKey();
    // Forgotten at once, so a refusal of a call still on its way does not word the sign-out again.
    current.current = undefined;
    setSession(undefined);
    setNotice(why);
  };
  const start = (key: string, found: Awaited<ReturnType<typeof identify>>) => {
    setNotice(undefined);
    setSession({ key, ...found, signOut });
  };

  // The service refused the signed-in key (revoked or expired meanwhile), or another tab signed
  // out of the remembered key: this tab forgets it and asks for a key again.
  useEffect(() => {
    const refused = (event: Event) => {
      if (current.current === undefined || (event as CustomEvent<string>).detail !== current.current.key) return;
      signOut('The service no longer accepts this API key: it was revoked or has expired. Sign in with another key.');
    };
    const elsewhere = (event: StorageEvent) => {
      if (current.current === undefined || !forgottenElsewhere(event, current.current.key)) return;
      signOut('You signed out in another tab.');
    };
    window.addEventListener(KEY_REFUSED, refused);
    window.addEventListener('storage', elsewhere);
    return () => {
      window.removeEventListener(KEY_REFUSED, refused);
      window.removeEventListener('storage', elsewhere);
    };
  }, []);

  useEffect(() => {
    const key = storedKey();
    if (key === undefined) return;
    identify(key)
      .then((found) => start(key, found))
      .catch((error: unknown) => {
        // A key no longer accepted is forgotten; any other failure leaves it for the next try. Either
        // way the sign-in page says why it shows, rather than look as if the key had been lost.
        if (error instanceof ConsoleError && error.status === 401) {
          forgetKey();
          setNotice('Your saved API key is no longer accepted: it was revoked or has expired. Sign in with another key.');
        } else {
          const why = messageOf(error).replace(/\.?\s*$/, '.');
          setNotice(`Your saved API key could not be checked, so it is kept. ${why} Reload the page to try again.`);
        }
      })
      .finally(() => setRestoring(false));
  }, []);

  if (restoring) return <Loading what="your session" />;
  if (!session) return <SignIn onSignedIn={start} notice={notice} />;
  return (
    <SessionContext.Provider value={session}>
      <Shell session={session} />
    </SessionContext.Provider>
  );
}

function Shell(props: { session: Session }) {
  const { path } = usePlace();
  const main = useRef<HTMLElement>(null);
  const found = VIEWS.map((entry) => ({ entry, params: matchPath(entry.path, path) })).find((candidate) => candidate.params !== undefined);

  useEffect(() => {
    if (path === '/' || path === '') navigate(HOME, { replace: true });
  }, [path]);
  useEffect(() => {
    document.title = `${found?.entry.title ?? 'Not found'} · Animal store console`;
    // After a navigation, the view's heading gets the focus, so a screen reader announces the new page.
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [path]);

  const View = found?.entry.view;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Animal store</span>
        <nav aria-label="Console">
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.path}>
                <Link to={item.path} aria-current={path === item.path || path.startsWith(`${item.path}/`) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">Key: {props.session.identity.name}</span>
        <button type="button" onClick={() => props.session.signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main}>
        {View ? (
          <View params={found.params!} />
        ) : (
          <>
            <h1 tabIndex={-1}>Not found</h1>
            <p>The console has no page at this address.</p>
          </>
        )}
      </main>
    </>
  );
}
