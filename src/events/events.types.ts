/**
 * The kinds of events the store records, and which scope reads each: the one list the schemas,
 * the feed's filter and its scope rule derive from. The rows themselves are written by the
 * triggers of migration 2026-11-27T02-events, whose type names these are.
 */
import type { Scope } from '../keys/scopes.js';

export const EVENT_TYPES = ['pet.created', 'pet.updated', 'pet.deleted', 'order.placed', 'order.approved', 'order.delivered', 'order.cancelled'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A group names every type of one resource: `pet.*`. */
export const EVENT_TYPE_GROUPS = ['pet.*', 'order.*'] as const;
export type EventTypeFilter = EventType | (typeof EVENT_TYPE_GROUPS)[number];

/** What a `pet.updated` event names in `changed`: the Pet's fields a change can set. */
export const CHANGEABLE_PET_FIELDS = ['name', 'categoryId', 'status'] as const;

/** The scope a key needs to read events of this type (or group). */
export function scopeToRead(type: EventTypeFilter): Scope {
  return type.startsWith('pet.') ? 'pets:read' : 'orders:read';
}

/** The exact types a filter names, each once, in the order of EVENT_TYPES. */
export function expandTypeFilter(filter: readonly EventTypeFilter[]): EventType[] {
  const groups = filter.filter((type) => type.endsWith('.*')).map((group) => group.slice(0, -1));
  return EVENT_TYPES.filter((type) => filter.includes(type) || groups.some((prefix) => type.startsWith(prefix)));
}
