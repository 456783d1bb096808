/**
 * What a key may do. The one list of scopes: the CLI, access control (access/), the OpenAPI document and
 * docs/api.md's table all derive from it. A key without the scope an operation declares gets 403.
 */
export const SCOPES = ['pets:read', 'pets:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write', 'keys:manage'] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'pets:read': 'list and fetch animals',
  'pets:write': 'add, change and remove animals',
  'orders:read': "read the store's orders",
  'orders:write': "place and change the store's orders",
  'webhooks:read': "read the store's webhook endpoints and their deliveries",
  'webhooks:write': 'add, change and remove webhook endpoints',
  'keys:manage': 'list, create and revoke API keys, none holding a scope the key lacks',
};

export function isScope(text: string): text is Scope {
  return (SCOPES as readonly string[]).includes(text);
}

/** Scopes as stored: space-separated (as in OAuth's `scope`), each once, in the order of SCOPES. */
export function formatScopes(scopes: readonly Scope[]): string {
  return SCOPES.filter((scope) => scopes.includes(scope)).join(' ');
}

/** Scopes as read back; a scope this version does not know (from a newer one, say) grants nothing. */
export function parseScopes(stored: string): Scope[] {
  const granted = new Set(stored.split(' '));
  return SCOPES.filter((scope) => granted.has(scope));
}
