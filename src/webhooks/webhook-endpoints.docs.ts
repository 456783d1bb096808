/** The OpenAPI prose of the webhook endpoints, kept apart so the routes read at a glance. */
import { WEBHOOK_ENDPOINTS_MAX } from './webhook-endpoints.limits.js';
import { PREVIOUS_SECRET_GRACE_MS } from './webhook-secret.js';
import { LOOKUP_TIMEOUT_MS, REGISTRATION_LOOKUPS_MAX, REGISTRATION_LOOKUPS_PER_KEY, WEBHOOK_URL_MAX_LENGTH } from './webhook-url-policy.js';

const GRACE_HOURS = PREVIOUS_SECRET_GRACE_MS / 3_600_000;

/** The rules of webhook-url-policy.ts, in words. */
const URL_RULES = `**Which URLs are accepted.** An absolute \`https\` URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters, any port, without user name or password (the signature authenticates the sender), without fragment, and without an empty label in its host name (\`a..b.example\`). Its host must be public: an IP address that is loopback, private, link-local, unique-local, carrier-grade NAT, multicast, unspecified, reserved or otherwise not public unicast (IPv4-mapped and IPv4-compatible IPv6 addresses, \`::ffff:0:0/96\` and \`::/96\`, included) is refused, and so is a name that resolves to any such address (DNS is asked; \`localhost\` and names under \`.localhost\` are loopback and refused without asking). A name that does not resolve (yet), or whose lookup takes more than ${LOOKUP_TIMEOUT_MS / 1000} s, is accepted: every delivery checks the address it connects to again. At most ${REGISTRATION_LOOKUPS_PER_KEY} such lookups of one API key run at once on an instance: while they do, another URL of that key that needs one answers 503 \`service_unavailable\` with \`Retry-After\` (nothing is written): retry then. At most ${REGISTRATION_LOOKUPS_MAX} run at once on an instance, of all keys: while they all do, a URL is accepted without its lookup, as a name that does not resolve yet is (every delivery checks the address). The hosts the operator lists in \`WEBHOOK_ALLOWED_HOSTS\` (none by default) are exempt from the address check and may use \`http\` too. A refused URL answers 400 \`validation_failed\` naming \`body.url\` and why.`;

/** What a retry under the same Idempotency-Key answers (webhook-secret-replay.ts). */
const SECRET_REPLAY = `**Retried with the same \`Idempotency-Key\`**, it answers the first answer again, secret included, as long as that secret is still the endpoint's; once it has been rotated (or the endpoint removed) the retry answers 409 \`webhook_secret_superseded\` instead, never a replaced secret. The idempotency record keeps the secret's SHA-256 only, not the secret.`;

const RECEIVES = `**What it receives.** \`events\` names exact types or groups (\`pet.*\`); the endpoint receives those the API key that set them could read (\`allowedTypes\`: \`pets:read\` for pet events, \`orders:read\` for order events), whatever becomes of that key later. Types the key may not read are left out; naming only such types answers 403 \`insufficient_scope\`.`;

export const WEBHOOKS_TAG = {
  name: 'webhooks',
  description: `Webhook endpoints: URLs the store sends its events to, signed as Standard Webhooks says. **Beta.** Endpoints belong to the store; a key needs \`webhooks:read\` to read them and \`webhooks:write\` to change them. A store has at most ${WEBHOOK_ENDPOINTS_MAX} (409 \`webhook_endpoint_limit\` beyond).

${RECEIVES}

${URL_RULES}`,
};

export const CREATE_DESCRIPTION = `Adds a webhook endpoint, enabled, and answers it with its signing secret (\`whsec_…\`). **The secret is shown only in this answer**: store it now; \`rotateWebhookEndpointSecret\` makes a new one.

${SECRET_REPLAY}

${RECEIVES}

${URL_RULES}`;

export const LIST_DESCRIPTION = `Returns at most \`limit\` webhook endpoints in ascending id order, without their secrets. When more follow, the answer carries \`Link: </v1/webhook-endpoints?…&cursor=…>; rel="next"\`. A store has at most ${WEBHOOK_ENDPOINTS_MAX}, so \`limit=${WEBHOOK_ENDPOINTS_MAX}\` answers them all at once (an endpoint added while a client follows the links may be passed).`;

export const UPDATE_DESCRIPTION = `Changes a webhook endpoint with a JSON Merge Patch (RFC 7396), as \`application/merge-patch+json\` (or \`application/json\`): \`url\`, \`events\`, \`description\` (\`null\` removes it), \`status\`. Answers the endpoint as it now is, without its secret unless the change widened \`allowedTypes\` (below).

**Who answers for what it receives.** A patch that sets \`url\` or \`events\` sets \`allowedTypes\` again from what this request's key may read of the endpoint's \`events\` (a key reading pets only that sets the \`url\` of an endpoint receiving \`pet.*\` and \`order.*\` leaves it receiving pet events only; one that may read none of its \`events\` gets 403 \`insufficient_scope\`): a key cannot point an endpoint that receives what it may not read at a URL of its choosing. In the same change, the endpoint's pending deliveries of types it no longer receives become \`failed\`, unsent (test messages stay pending). A patch of \`description\` or \`status\` alone leaves \`allowedTypes\` as it was.

**Widening replaces the secret.** A patch that gives \`allowedTypes\` a type it did not have (a key with \`orders:read\` setting the \`url\` of an endpoint a pets-only key made with \`order.*\` in its \`events\`) also replaces the signing secret, at once and without overlap: the old secret, and a previous one still signing after a rotation, sign nothing more, since a key that could not read the new types may know them. The answer then carries the new \`secret\`, **shown only in this answer**: give it to the receiver now. A retry with the same \`Idempotency-Key\` answers it again while it is still the endpoint's, then 409 \`webhook_secret_superseded\`; the idempotency record keeps its SHA-256 only.

**Status.** \`disabled\` stops deliveries: its pending ones become \`failed\` at once, as when the service disables an endpoint, and \`test\` or a retry by hand answers 409 \`webhook_endpoint_disabled\`. \`enabled\` starts deliveries again for the events that come after it, and clears \`disabledReason\` and the endpoint's run of failures; it revives no failed delivery: events of the time it was disabled are not sent (retry them by hand once it is enabled).

${URL_RULES}`;

export const DELETE_DESCRIPTION =
  'Removes a webhook endpoint for good, with its deliveries, pending ones included, and their attempts: none is sent any more (one already on its way may still arrive). Its id is never given to another endpoint.';

export const ROTATE_DESCRIPTION = `Gives the endpoint a new signing secret and answers it, **shown only in this answer**. For ${GRACE_HOURS} hours (\`previousSecretExpiresAt\`) deliveries carry a signature made with the secret it replaced beside one made with the new one, so receivers can switch without losing any. A second rotation within those hours ends the oldest secret at once: only the two newest secrets ever sign.

**Refused** with 403 \`insufficient_scope\` when this request's key may not read every event type the endpoint receives (its \`allowedTypes\`: \`pets:read\` for pet events, \`orders:read\` for order events): with the secret it could sign such events itself. The challenge names the scopes it lacks.

${SECRET_REPLAY}`;
