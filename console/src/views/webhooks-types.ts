/**
 * What the Webhooks views know of the API's webhook endpoints and deliveries: their types, the
 * event types an endpoint may ask for, and how an endpoint is changed.
 */
import type { components } from '@animal-store/client';
import { answer, type Client, newIdempotencyKey } from '../api.js';

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecret'];
export type UpdatedWebhookEndpoint = components['schemas']['UpdatedWebhookEndpoint'];
type WebhookEndpointPatch = components['schemas']['WebhookEndpointPatch'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type EventFilter = components['schemas']['NewWebhookEndpoint']['events'][number];
export type DeliveryOutcome = WebhookDelivery['state'];

/** The groups first, then each exact type, as the form offers them. */
export const EVENT_FILTERS = [
  'pet.*',
  'order.*',
  'pet.created',
  'pet.updated',
  'pet.deleted',
  'order.placed',
  'order.approved',
  'order.delivered',
  'order.cancelled',
] as const satisfies readonly EventFilter[];
// Every type of the contract is offered: a new one fails the type check here.
const everyFilter: Record<Exclude<EventFilter, (typeof EVENT_FILTERS)[number]>, never> = {};
void everyFilter;

export const DELIVERY_OUTCOMES = ['pending', 'succeeded', 'failed'] as const satisfies readonly DeliveryOutcome[];
const everyOutcome: Record<Exclude<DeliveryOutcome, (typeof DELIVERY_OUTCOMES)[number]>, never> = {};
void everyOutcome;

/** The API's list of an endpoint's event types, as one line of text. */
export function eventsText(events: readonly string[]): string {
  return events.join(', ');
}

/**
 * Changes an endpoint with a JSON Merge Patch (only the fields given change; `description: null`
 * removes it). The answer carries a new `secret`, shown once, when the change widened what it
 * receives; the Idempotency-Key lets the client retry without losing that answer.
 */
/**
 * `idempotencyKey`: the same for a retry of the same change. A change that widens the event types
 * answers a new signing secret once; a retry under a new key would find nothing to widen and
 * answer none, and the secret would be lost.
 */
export function patchEndpoint(client: Client, endpointId: number, patch: WebhookEndpointPatch, idempotencyKey = newIdempotencyKey()) {
  return answer(
    client.raw.PATCH('/webhook-endpoints/{endpointId}', {
      params: { path: { endpointId } },
      body: patch,
      headers: { 'content-type': 'application/merge-patch+json', 'idempotency-key': idempotencyKey },
    }),
  );
}
