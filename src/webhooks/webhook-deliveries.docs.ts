/** The OpenAPI prose of the webhook deliveries, kept apart so the routes read at a glance. */
import { SEND_TIMEOUT_MS } from './webhook-lease.js';

export const LIST_DELIVERIES_DESCRIPTION = `Returns at most \`limit\` deliveries of the endpoint, newest first, optionally only those in one state (\`outcome\`). Each delivery is one message (an event, or a test) to this endpoint with its last attempts, newest first: when each was made, how long it took, and the receiver's status or why there was none.

**What a key sees.** Only the deliveries of event types this request's key may read (\`pets:read\` for pet events, \`orders:read\` for order events), and the test messages: a delivery tells its event's type, id and time, and how the receiver answered. A key with \`webhooks:read\` alone sees the test messages only.

**Pagination.** When more deliveries follow, the response carries \`Link: </v1/webhook-endpoints/{endpointId}/deliveries?…&cursor=…>; rel="next"\`; follow it until no such link comes. Deliveries are kept \`EVENT_RETENTION_DAYS\` once settled.`;

export const RETRY_DELIVERY_DESCRIPTION = `Sends the delivery again now, whatever its state (a failed one, a succeeded one, a pending one waiting for its next attempt), with the same \`webhook-id\` and body. It becomes \`pending\`, due now; answers 202 with it before it is sent. A delivery whose retry schedule was done gets one more attempt.

**Refused.** 404 \`webhook_delivery_not_found\` when this request's key may not read the delivery's event type (\`pets:read\` for a pet event, \`orders:read\` for an order event; a \`webhook.test\` needs neither), as for a delivery that does not exist: the deliveries listing leaves such deliveries out, and so does this. 403 \`insufficient_scope\` when the key may read the type but the endpoint no longer receives it (its \`allowedTypes\` were narrowed since, by a change of its \`url\` or \`events\`); the challenge names the scope. 409 \`webhook_endpoint_disabled\` when the endpoint is disabled: enable it first. 409 \`webhook_delivery_in_flight\` while an attempt of this delivery is being sent (its dispatcher holds it): retry after that attempt ends (its outcome shows in the deliveries); an attempt whose dispatcher died does not hold it past its lease.`;

export const TEST_DELIVERY_DESCRIPTION = `Sends a \`webhook.test\` message to the endpoint now (see the \`webhook.test\` entry of the document's \`webhooks\`), signed like every delivery, under a \`webhook-id\` of its own, so an integrator can check a receiver. Answers 202 with the delivery before it is sent; its attempts show in the endpoint's deliveries. Like any delivery it is retried on failure. A disabled endpoint answers 409 \`webhook_endpoint_disabled\` (nothing would send it): enable it first.`;

/** What the OpenAPI document's `webhooks` section says of every message: how it is sent and signed. */
const WEBHOOK_MESSAGE_DESCRIPTION = `Sent to each enabled webhook endpoint whose events include the event's type, as a POST whose body is the Event exactly as \`GET /v1/events\` shows it. **Beta.** At least once and in no particular order: a receiver deduplicates by \`webhook-id\`. It succeeds on any 2xx within ${SEND_TIMEOUT_MS / 1000} s; redirects are not followed; other answers are retried on the schedule \`WEBHOOK_RETRY_SCHEDULE\`, later if a 429 or 503 carries \`Retry-After\`; 410 disables the endpoint. Signed as Standard Webhooks says (standardwebhooks.com): verify with any Standard Webhooks library, or the client's \`verifyWebhook\`.`;

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description:
      "The message's id: `evt_<event id>` for an event, `msg_test_…` for a test; the same on every attempt, so a receiver can drop a message it already handled.",
    example: 'evt_1234',
  },
  {
    name: 'webhook-timestamp',
    description:
      'When this attempt was sent, in whole seconds since the Unix epoch. Refuse a message whose timestamp is more than about 5 minutes from your clock (replays).',
    example: '1764235800',
  },
  {
    name: 'webhook-signature',
    description:
      "One or more space-separated signatures `v1,<base64>`: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`. During the 24 hours after a secret rotation there are two (the new secret's first); accept the message when any one matches.",
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map(({ name, description, example }) => ({ name, in: 'header' as const, required: true, description, schema: { type: 'string' as const }, example }));

/** A Standard Webhooks message as an OpenAPI 3.1 `webhooks` entry: what the service POSTs to a receiver. */
function webhookEntry(operationId: string, summary: string, schema: string, description: string) {
  return {
    post: {
      operationId,
      summary,
      description,
      tags: ['webhooks'],
      'x-stability': 'beta',
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
      responses: {
        '200': {
          description:
            'Any 2xx answered within 15 s: the message was received. Its body is read and ignored, at most 64 KiB and within those 15 s (past either the connection is closed; the status still decides).',
        },
        '410': { description: 'The receiver is gone for good: the endpoint is disabled and nothing more is sent to it.' },
        default: { description: 'Any other answer, or none: the message is sent again on the retry schedule (after `Retry-After` on 429 or 503).' },
      },
    },
  };
}

/** The document's `webhooks` section (OpenAPI 3.1): the event messages, and the test message. */
export const WEBHOOKS_DOCUMENT = {
  event: webhookEntry('receiveEvent', 'An event of the store', 'Event', WEBHOOK_MESSAGE_DESCRIPTION),
  'webhook.test': webhookEntry(
    'receiveTestMessage',
    'A test message',
    'WebhookTestEvent',
    `Sent when \`POST /v1/webhook-endpoints/{endpointId}/test\` asks for it, signed and retried like an event. ${WEBHOOK_MESSAGE_DESCRIPTION.split('. ').slice(1).join('. ')}`,
  ),
};
