/** The OpenAPI prose of the events feed, kept apart so the route reads at a glance. */
import { CONFIG_DEFAULTS } from '../config-defaults.js';

export const LIST_EVENTS_DESCRIPTION = `The store's changes as a feed, oldest first: every change of an animal or an order is recorded as one event in the same transaction as the change (a change that rolls back leaves none), and stays in the feed until it is purged (**Retention**, below).

**Reading it.** Without \`cursor\` the feed starts at the oldest event kept; \`start=latest\` answers no event, only the position after the newest one. Every answer, an empty one too, carries \`Link: <…>; rel="next"\`: after the last event it returned, or, when it returned none, at the same position (with a \`type\` filter, or a key that reads one kind of event: past the events of other types it read, at most 1,000 an answer, so a rare type never costs a read of the whole feed). Store that one cursor and ask again from it, now or later: the feed never ends.

**Exact.** A reader that follows the links never misses an event and never sees one twice, however many instances write at once: an event is shown only once every change that could still come before it has ended. So the feed's order is the order changes became final, which need not be the order of ids.

**Retention.** Events are kept \`EVENT_RETENTION_DAYS\` (${CONFIG_DEFAULTS.EVENT_RETENTION_DAYS} by default), then purged, oldest first. A cursor whose next events were purged answers 410 \`cursor_expired\`, so a reader knows it missed events rather than skipping them silently; an old cursor that missed nothing (an idle feed's) stays valid.

**Scopes.** Animal events (\`pet.*\`) need \`pets:read\`, order events (\`order.*\`) \`orders:read\`. Events a key may not read are left out of its answers; asking only for types it may not read (\`type=order.*\` with \`pets:read\` alone) answers 403 \`insufficient_scope\`.`;
