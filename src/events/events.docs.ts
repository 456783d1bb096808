/** The OpenAPI prose of the events feed, kept apart so the route reads at a glance. */
import { CONFIG_DEFAULTS } from '../config-defaults.js';
import { EVENT_STREAM_MEDIA_TYPE, KEEP_ALIVE_MS, RECONNECT_MS, STALLED_READER_MS } from './events.sse.js';

export const LIST_EVENTS_DESCRIPTION = `The store's changes as a feed, oldest first: every change of an animal or an order is recorded as one event in the same transaction as the change (a change that rolls back leaves none), and stays in the feed until it is purged (**Retention**, below).

**Reading it.** Without \`cursor\` the feed starts at the oldest event kept; \`start=latest\` answers no event, only the position after the newest one. Every answer, an empty one too, carries \`Link: <…>; rel="next"\`: after the last event it returned, or, when it returned none, at the same position (with a \`type\` filter, or a key that reads one kind of event: past the events of other types it read, at most 1,000 an answer, so a rare type never costs a read of the whole feed). Store that one cursor and ask again from it, now or later: the feed never ends.

**Exact.** A reader that follows the links never misses an event and never sees one twice, however many instances write at once: an event is shown only once every change that could still come before it has ended. So the feed's order is the order changes became final, which need not be the order of ids.

**Retention.** Events are kept \`EVENT_RETENTION_DAYS\` (${CONFIG_DEFAULTS.EVENT_RETENTION_DAYS} by default), then purged, oldest first. A cursor whose next events were purged answers 410 \`cursor_expired\`, so a reader knows it missed events rather than skipping them silently; an old cursor that missed nothing (an idle feed's) stays valid.

**Waiting for events.** \`wait=N\` (a long poll) holds an answer that would hold no event until one is there or N seconds have passed. A stream (\`Accept: ${EVENT_STREAM_MEDIA_TYPE}\`) sends every event as it comes, and stays open. Either learns of a change made through the same instance at once, and of one made through another instance within about a second (at once with Redis); an event may take as long as the change before it to show (**Exact**, above).

**Scopes.** Animal events (\`pet.*\`) need \`pets:read\`, order events (\`order.*\`) \`orders:read\`. Events a key may not read are left out of its answers; asking only for types it may not read (\`type=order.*\` with \`pets:read\` alone) answers 403 \`insufficient_scope\`.`;

/** The format of the live stream, for the OpenAPI document. */
export const EVENT_STREAM_DESCRIPTION = `Server-Sent Events (the HTML standard's \`text/event-stream\`), one frame per event, oldest first, as they come:

\`\`\`
id: <the cursor after this event>
event: <its type, such as pet.updated>
data: <the Event as JSON, on one line>

\`\`\`

It starts with \`retry: ${RECONNECT_MS}\` (the reconnection delay suggested, in ms), and writes a comment line (\`: keep-alive\`) every ${KEEP_ALIVE_MS / 1000} s while idle, so proxies do not close it. To resume, reconnect with \`Last-Event-ID\` set to the last \`id:\` received (EventSource does it by itself): the stream goes on exactly after that event, none missed, none twice. The stream ends when the instance stops (resume as above), when the key is revoked (checked before each batch of events), when the client leaves, or when the connection takes nothing for ${STALLED_READER_MS / 1000} s while events wait to be sent (a client that stopped reading, or reads far slower than the feed; resume as above). \`limit\` does not apply to a stream. A stream that cannot start is answered as any error, in JSON: 400, 403, 410, 429 \`too_many_streams\` (at most \`EVENT_STREAMS_PER_KEY\` streams per key and instance, ${CONFIG_DEFAULTS.EVENT_STREAMS_PER_KEY} by default).`;

/** The Last-Event-ID header, for the OpenAPI document. */
export const LAST_EVENT_ID_DESCRIPTION = `Streams only (\`Accept: ${EVENT_STREAM_MEDIA_TYPE}\`): the \`id:\` of the last frame received, to resume after it. It wins over \`cursor\` and \`start\`, and is checked as a cursor is (made for the same \`type\` filter; 400 \`invalid_cursor\` otherwise, 410 \`cursor_expired\` when its next events were purged).`;
