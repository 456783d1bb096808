/** What the API keys view knows of the API's keys: their types and every scope a key may hold. */
import type { components } from '@animal-store/client';

export type ApiKey = components['schemas']['ApiKey'];
export type IssuedApiKey = components['schemas']['IssuedApiKey'];
export type Scope = components['schemas']['NewApiKey']['scopes'][number];

export const SCOPES = [
  'pets:read',
  'pets:write',
  'orders:read',
  'orders:write',
  'webhooks:read',
  'webhooks:write',
  'keys:manage',
] as const satisfies readonly Scope[];
// Every scope of the contract is offered: a new one fails the type check here.
const everyScope: Record<Exclude<Scope, (typeof SCOPES)[number]>, never> = {};
void everyScope;
