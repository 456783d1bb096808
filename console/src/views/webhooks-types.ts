/** What the Webhooks views know of the API's webhook endpoints and deliveries: their types, and the event types an endpoint may ask for. */
import type { components } from '@animal-store/client';

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecret'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
type EventFilter = components['schemas']['NewWebhookEndpoint']['events'][number];
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
