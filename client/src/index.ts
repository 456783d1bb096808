/**
 * `@animal-store/client`: a typed client for the animal-store API. Types are generated from
 * openapi.json (./openapi.ts), calls are made by openapi-fetch (available as `raw` for anything
 * not wrapped here), and this thin layer adds what the generator does not: every page of a
 * listing as an async iterator, the events feed followed for ever, retries of what may safely
 * run twice, an Idempotency-Key per logical create, one error type, AnimalStoreError, and
 * verifyWebhook for receivers of the service's webhooks.
 */
import createClient, { type Client } from 'openapi-fetch';
import { AnimalStoreError, errorFromResponse } from './errors.js';
import { type FeedItem, type FeedQuery, type FollowEventsOptions, followEvents } from './events.js';
import type { components, paths } from './openapi.js';
import { allPages } from './pages.js';
import { type RetryOptions, retryingFetch } from './retry.js';

export { AnimalStoreError, type AnimalStoreErrorCode, type AnimalStoreErrorDetail } from './errors.js';
export type { Event, EventTypeFilter, FeedItem, FollowEventsOptions } from './events.js';
export { DEFAULT_WAIT_SECONDS } from './events.js';
export type { RetryOptions } from './retry.js';
export {
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookPayload,
  type WebhookTestEvent,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './webhooks.js';
export type { components, operations, paths } from './openapi.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetPatch = components['schemas']['PetPatch'];
export type Order = components['schemas']['Order'];
export type NewOrder = components['schemas']['NewOrder'];
/** An API key as listed (never the key itself). **Beta**, as the keys operations are. */
export type ApiKey = components['schemas']['ApiKey'];
/** A new API key with the key itself: answered once, by createApiKey. */
export type IssuedApiKey = components['schemas']['IssuedApiKey'];
export type NewApiKey = components['schemas']['NewApiKey'];
/** The key making the requests: its id, name, prefix, scopes and expiry. */
export type CurrentApiKey = components['schemas']['CurrentApiKey'];
export type PetQuery = Omit<NonNullable<paths['/pets']['get']['parameters']['query']>, 'cursor'>;
export type OrderQuery = Omit<NonNullable<paths['/store/orders']['get']['parameters']['query']>, 'cursor'>;

export interface AnimalStoreClientOptions {
  /** Where the service answers, without `/v1`: `http://localhost:8080`. */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  retry?: RetryOptions;
  /** The fetch to use; the global fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Options of a create: the Idempotency-Key to send (a new UUID when omitted), reused on every retry of this call. */
export interface CreateOptions {
  idempotencyKey?: string;
}

/** Options of a change or removal: its If-Match precondition. */
export interface ConditionalOptions {
  ifMatch?: string;
}

type Outcome<T> = { data?: T; error?: unknown; response: Response };

async function unwrap<T>(call: Promise<Outcome<T>>): Promise<{ data: T; response: Response }> {
  let outcome: Outcome<T>;
  try {
    outcome = await call;
  } catch (error) {
    if (error instanceof AnimalStoreError) throw error;
    throw new AnimalStoreError({ code: 'network_error', status: 0, message: `no answer from the service: ${(error as Error).message}`, cause: error });
  }
  if (!outcome.response.ok) throw errorFromResponse(outcome.response, outcome.error);
  return { data: outcome.data as T, response: outcome.response };
}

export function createAnimalStoreClient(options: AnimalStoreClientOptions) {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw: Client<paths> = createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/v1`,
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(baseFetch, options.retry),
  });
  const created = (idempotencyKey: string | undefined) => ({ 'idempotency-key': idempotencyKey ?? crypto.randomUUID() });
  const conditional = (ifMatch: string | undefined) => (ifMatch === undefined ? {} : { 'if-match': ifMatch });

  return {
    /** The openapi-fetch client underneath (same auth and retries), for calls this layer does not wrap. */
    raw,

    /** Every animal matching `query`, page after page. */
    pets(query: PetQuery = {}): AsyncGenerator<Pet, void, undefined> {
      return allPages('/pets', query, async (q) => {
        const { data, response } = await unwrap(raw.GET('/pets', { params: { query: q } }));
        return { items: data, link: response.headers.get('link') };
      });
    },
    /** Every order matching `query`, page after page. */
    orders(query: OrderQuery = {}): AsyncGenerator<Order, void, undefined> {
      return allPages('/store/orders', query, async (q) => {
        const { data, response } = await unwrap(raw.GET('/store/orders', { params: { query: q } }));
        return { items: data, link: response.headers.get('link') };
      });
    },

    /**
     * Every event of the feed from `cursor` (or the oldest kept, or `start: 'latest'`), for ever,
     * each with the cursor to store once it is handled. Ends when `signal` aborts or the loop stops.
     */
    events(options: FollowEventsOptions = {}): AsyncGenerator<FeedItem, void, undefined> {
      return followEvents(options, async (query: FeedQuery, signal) => {
        // openapi-fetch sends every field of the query, so `wait` goes too, also while openapi.json does not name it.
        // The same path streams Server-Sent Events to `Accept: text/event-stream`: ask for the JSON page.
        const { data, response } = await unwrap(raw.GET('/events', { params: { query }, headers: { accept: 'application/json' }, signal }));
        if (!Array.isArray(data))
          throw new AnimalStoreError({
            code: 'unexpected_response',
            status: response.status,
            message: 'the events feed answered something else than a JSON array',
          });
        return { items: data, link: response.headers.get('link') };
      });
    },

    async createPet(pet: NewPet, opts: CreateOptions = {}): Promise<Pet> {
      return (await unwrap(raw.POST('/pets', { body: pet, headers: created(opts.idempotencyKey) }))).data;
    },
    /** One animal by id (GET /v1/pets?id=…, not the deprecated GET /v1/pets/{petId}); undefined when none has it. */
    async findPet(petId: number): Promise<Pet | undefined> {
      return (await unwrap(raw.GET('/pets', { params: { query: { id: [petId] } } }))).data[0];
    },
    async updatePet(petId: number, patch: PetPatch, opts: ConditionalOptions = {}): Promise<Pet> {
      return (await unwrap(raw.PATCH('/pets/{petId}', { params: { path: { petId } }, body: patch, headers: conditional(opts.ifMatch) }))).data;
    },
    async deletePet(petId: number, opts: ConditionalOptions = {}): Promise<void> {
      await unwrap(raw.DELETE('/pets/{petId}', { params: { path: { petId } }, headers: conditional(opts.ifMatch) }));
    },

    async placeOrder(order: NewOrder, opts: CreateOptions = {}): Promise<Order> {
      return (await unwrap(raw.POST('/store/orders', { body: order, headers: created(opts.idempotencyKey) }))).data;
    },
    async getOrder(orderId: number): Promise<Order> {
      return (await unwrap(raw.GET('/store/orders/{orderId}', { params: { path: { orderId } } }))).data;
    },
    async approveOrder(orderId: number, opts: CreateOptions = {}): Promise<Order> {
      return (await unwrap(raw.POST('/store/orders/{orderId}/approve', { params: { path: { orderId } }, headers: created(opts.idempotencyKey) }))).data;
    },
    async deliverOrder(orderId: number, opts: CreateOptions = {}): Promise<Order> {
      return (await unwrap(raw.POST('/store/orders/{orderId}/deliver', { params: { path: { orderId } }, headers: created(opts.idempotencyKey) }))).data;
    },
    async cancelOrder(orderId: number, opts: CreateOptions = {}): Promise<Order> {
      return (await unwrap(raw.POST('/store/orders/{orderId}/cancel', { params: { path: { orderId } }, headers: created(opts.idempotencyKey) }))).data;
    },

    /** Every API key, revoked and expired ones too, page after page (beta; needs `keys:manage`). */
    apiKeys(): AsyncGenerator<ApiKey, void, undefined> {
      return allPages('/api-keys', {}, async (q) => {
        const { data, response } = await unwrap(raw.GET('/api-keys', { params: { query: q } }));
        return { items: data, link: response.headers.get('link') };
      });
    },
    /**
     * Makes an API key (beta; needs `keys:manage`, and every scope it grants). The answer holds the
     * key itself, shown this once. A retry after a lost answer throws `api_key_already_issued`
     * rather than make a second key: that key is not shown again.
     */
    async createApiKey(key: NewApiKey, opts: CreateOptions = {}): Promise<IssuedApiKey> {
      return (await unwrap(raw.POST('/api-keys', { body: key, headers: created(opts.idempotencyKey) }))).data;
    },
    async getApiKey(keyId: number): Promise<ApiKey> {
      return (await unwrap(raw.GET('/api-keys/{keyId}', { params: { path: { keyId } } }))).data;
    },
    /** Revokes an API key; revoking one already revoked succeeds too, so the call is retried as a create is. */
    async revokeApiKey(keyId: number, opts: CreateOptions = {}): Promise<void> {
      await unwrap(raw.DELETE('/api-keys/{keyId}', { params: { path: { keyId } }, headers: created(opts.idempotencyKey) }));
    },
    /** The key this client sends, as the service knows it (any valid key may ask). */
    async currentApiKey(): Promise<CurrentApiKey> {
      return (await unwrap(raw.GET('/api-keys/current'))).data;
    },
  };
}

export type AnimalStoreClient = ReturnType<typeof createAnimalStoreClient>;
