/**
 * The signed-in key: where it is kept, what it may do, and signing out. The key stays in this
 * tab's sessionStorage (gone when the tab closes), or in localStorage only when the person ticked
 * "Remember on this device"; never in a cookie, so no request carries it unless the console sends
 * it, as `Authorization: Bearer`, to the API of its own origin.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { type Client, ConsoleError, answer, clientFor } from './api.js';

const STORAGE_NAME = 'animal-store-console.api-key';

/** What `GET /v1/api-keys/current` tells of a key; `scopes` undefined when the service did not say. */
export interface KeyIdentity {
  name?: string;
  prefix?: string;
  scopes?: string[];
  expiresAt?: string | null;
}

export interface Session {
  key: string;
  client: Client;
  identity: KeyIdentity;
  signOut: () => void;
}

export const SessionContext = createContext<Session | undefined>(undefined);

/** The session of the signed-in views (they are shown only with one). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside a signed-in view');
  return session;
}

/** Why the key may not do what needs `scope`, in words; undefined when it may (or its scopes are unknown). */
export function lackingScope(identity: KeyIdentity, scope: string): string | undefined {
  if (identity.scopes === undefined || identity.scopes.includes(scope)) return undefined;
  return `This key lacks the ${scope} scope.`;
}

export function storedKey(): string | undefined {
  return sessionStorage.getItem(STORAGE_NAME) ?? localStorage.getItem(STORAGE_NAME) ?? undefined;
}

export function keepKey(key: string, remember: boolean): void {
  forgetKey();
  (remember ? localStorage : sessionStorage).setItem(STORAGE_NAME, key);
}

/** Whether `event` is another tab forgetting the remembered `key` (signing out there): this tab signs out too. */
export function forgottenElsewhere(event: StorageEvent, key: string): boolean {
  return event.storageArea === localStorage && event.key === STORAGE_NAME && event.oldValue === key && event.newValue !== key;
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_NAME);
  localStorage.removeItem(STORAGE_NAME);
}

/**
 * Checks a key and learns its scopes: `GET /v1/api-keys/current`. Where the service does not have
 * that operation (404) or does not let this key use it (403), a listing any valid key reaches up to its scope check tells whether the key
 * is valid (401) or not, and its scopes stay unknown: every control stays enabled, and a refusal
 * (403) is shown in words where it happens. Throws a ConsoleError (401: the key is not accepted).
 */
export async function identify(key: string): Promise<{ client: Client; identity: KeyIdentity }> {
  const client = clientFor(key);
  try {
    const response = await fetch('/v1/api-keys/current', { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
    const body = (await response.json().catch(() => undefined)) as (KeyIdentity & { code?: string }) | undefined;
    if (response.ok && body) return { client, identity: body };
    // 404: a service without the operation; 403: one that asks a scope for it. Either way, learn no scopes.
    const unknowable = (response.status === 404 && body?.code === 'route_not_found') || response.status === 403;
    if (!unknowable) {
      await answer(Promise.resolve({ error: body, response }));
    }
  } catch (error) {
    if (error instanceof ConsoleError) throw error;
    throw new ConsoleError({ code: 'network_error', status: 0, message: `no answer from the service: ${(error as Error).message}` });
  }
  try {
    await answer(client.raw.GET('/pets', { params: { query: { limit: 1 } } }));
  } catch (error) {
    if (!(error instanceof ConsoleError && error.code === 'insufficient_scope')) throw error;
  }
  return { client, identity: {} };
}
