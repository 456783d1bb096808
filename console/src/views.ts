/**
 * The console's views, as data: an address pattern and the view shown there. A new view is a file
 * in views/ and one line here; the navigation lists the main ones.
 */
import type { FunctionComponent } from 'preact';
import { ActivityView } from './views/activity.js';
import { AnimalView } from './views/animal.js';
import { AnimalsView } from './views/animals.js';
import { OrdersView } from './views/orders.js';
import { ApiKeysView } from './views/api-keys.js';
import { WebhooksView } from './views/webhooks.js';
import { WebhookEndpointView } from './views/webhooks-endpoint.js';

export interface ViewProps {
  /** The address's parameters (`id` of /animals/:id). */
  params: Record<string, string>;
}

export interface ViewEntry {
  /** Under /console: `/animals/:id`. */
  path: string;
  /** The page's title, also the name of its navigation entry. */
  title: string;
  view: FunctionComponent<ViewProps>;
}

export const VIEWS: ViewEntry[] = [
  { path: '/animals', title: 'Animals', view: AnimalsView },
  { path: '/animals/:id', title: 'Animal', view: AnimalView },
  { path: '/orders', title: 'Orders', view: OrdersView },
  { path: '/activity', title: 'Activity', view: ActivityView },
  { path: '/webhooks', title: 'Webhooks', view: WebhooksView },
  { path: '/webhooks/:id', title: 'Webhook endpoint', view: WebhookEndpointView },
  { path: '/api-keys', title: 'API keys', view: ApiKeysView },
];

/** The navigation, in order; each names a view's address. */
export const NAVIGATION: { label: string; path: string }[] = [
  { label: 'Animals', path: '/animals' },
  { label: 'Orders', path: '/orders' },
  { label: 'Activity', path: '/activity' },
  { label: 'Webhooks', path: '/webhooks' },
  { label: 'API keys', path: '/api-keys' },
];

/** Where /console/ itself leads. */
export const HOME = '/animals';
