/**
 * The signed-in key: where it is kept, what it may do, and signing out. The key stays in this
 * tab's sessionStorage (gone when the tab closes), or in localStorage only when the person ticked
 * "Remember on this device"; never in a cookie, so no request carries it unless the console sends
 * it, as `Authorization: Bearer`, to the API of its own origin.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CurrentApiKey } from '@animal-store/client';
import { answer, type Client, clientFor, ConsoleError } from './api.js';

const STORAGE_NAME = 'animal-store-console.api-key';

/** The signed-in key as `GET /v1/api-keys/current` tells it: its id, name, prefix, scopes and expiry. */
export type KeyIdentity = CurrentApiKey;

export interface Session {
  key: string;
  client: Client;
  identity: KeyIdentity;
  /** Forgets the key and shows the sign-in page, with `notice` (why) when given. */
  signOut: (notice?: string) => void;
}

export const SessionContext = createContext<Session | undefined>(undefined);

/** The session of the signed-in views (they are shown only with one). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside a signed-in view');
  return session;
}

/** Why the key may not do what needs `scope`, in words; undefined when it may. */
export function lackingScope(identity: KeyIdentity, scope: string): string | undefined {
  if ((identity.scopes as readonly string[]).includes(scope)) return undefined;
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
 * Checks a key and learns what it is and may do: `GET /v1/api-keys/current`, which any valid key
 * may call. Throws a ConsoleError: 401 when the key is not accepted, status 0 when the service did
 * not answer; any other refusal says the key could not be checked, and why.
 */
export async function identify(key: string): Promise<{ client: Client; identity: KeyIdentity }> {
  const client = clientFor(key);
  try {
    const { data } = await answer(client.raw.GET('/api-keys/current'));
    return { client, identity: data };
  } catch (error) {
    // 401 is the sign-in page's to word; no answer at all is worded by messageOf.
    if (!(error instanceof ConsoleError) || error.status === 401 || error.status === 0) throw error;
    throw new ConsoleError({
      code: error.code,
      status: error.status,
      message: `The key could not be checked (HTTP ${error.status}): ${error.message}`,
      requestId: error.requestId,
      cause: error,
    });
  }
}
