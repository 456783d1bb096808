// Generated from openapi.json by `npm run openapi` (scripts/client-types.ts): do not edit.
export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List animals
         * @description Returns at most `limit` animals in ascending id order. Filters narrow the listing and combine (every filter given must hold): `status`, `categoryId`, `name` (a case-insensitive prefix of the name) and `id` (one or more ids: `?id=7&id=9`, the way to read animals by id).
         *
         *     **Pagination.** When more animals follow, the response carries `Link: </v1/pets?…&cursor=…>; rel="next"` (RFC 8288); follow it until no such link comes. The body stays a bare JSON array. Walking the pages returns every matching animal that existed when the walk began exactly once, in id order. An animal added during the walk may or may not come: on SQLite it does (one writer commits ids in order), on PostgreSQL ids commit in any order, so one with an id below the walk's position is not met; a client that must mirror the store exactly follows the events feed (`GET /v1/events`). Cursors are signed: one that was altered or not made by this service, or used with other filters than it was made for, answers 400 `invalid_cursor`; `limit` may change between pages.
         *
         *     **Strictness.** Integers (`limit`, `categoryId`, each `id`) must be decimal digits (`1.5`, `1e2`, `abc` and an empty value are refused). Only `id` may be repeated; any other parameter given twice, and unknown parameters, are refused by name.
         *
         *     **Requires scope `pets:read`** (list and fetch animals); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add an animal
         * @description Adds an animal and answers it with the `id` the service assigned. `status` defaults to `available`.
         *
         *     The body is checked strictly and never altered: `"5"` is not an integer, `1.5` is not an integer, `null` is not a value, an integer beyond 2^53−1 is refused rather than rounded, unknown fields are refused by name, and `id` is refused because the service assigns it. The body must be `application/json` and at most the configured size (64 KiB by default).
         *
         *     **Requires scope `pets:write`** (add, change and remove animals); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch one animal (deprecated)
         * @deprecated
         * @description **Deprecated** since 2026-11-25 (interface 1.0.0 was published with it deprecated) and **removed on Thu, 05 Dec 2030 00:00:00 GMT**: from that instant it answers 410 `operation_removed`. Use `GET /v1/pets?id={petId}` instead: it answers a one-animal array, or `[]` when no animal has the id.
         *
         *     Every answer carries `Deprecation: @1795564800` (RFC 9745), `Sunset: Thu, 05 Dec 2030 00:00:00 GMT` (RFC 8594) and `Link` to the successor and to this notice.
         *
         *     **Requires scope `pets:read`** (list and fetch animals); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        /**
         * Remove an animal
         * @description Removes an animal for good. It then no longer appears in listings, and `getPet`, `updatePet` and `deletePet` answer 404 `pet_not_found` for its id (the service does not remember removed animals, so it answers 404 rather than 410). Its id is never given to another animal. While the animal has an open order (`placed` or `approved`) it cannot be removed: 409 `pet_has_open_order`; deliver or cancel the order first. Its closed orders stay readable, with its id as `petId`.
         *
         *     **Lost updates.** Send the `ETag` you received (from `createPet`, `getPet` or an earlier change) in `If-Match`: the check and the write are one atomic step, so of two clients changing the same state, exactly one succeeds and the other gets 412 `precondition_failed`. Without `If-Match` the request applies unconditionally (last write wins). A missing animal is 404 whatever `If-Match` says.
         *
         *     **Requires scope `pets:write`** (add, change and remove animals); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        delete: operations["deletePet"];
        options?: never;
        head?: never;
        /**
         * Change an animal
         * @description Changes an animal with a JSON Merge Patch (RFC 7396): send only the fields to change, as `application/merge-patch+json` (or `application/json`). Answers the whole animal as it now is, with its new `ETag`.
         *
         *     **Strictness.** As for `createPet`: no type is converted, an unknown field is refused by name, `id` is refused (it never changes), an empty patch `{}` is refused, and `null` is refused for every field (a merge patch would remove the field, and every field of an animal is required).
         *
         *     **Status.** Any status may follow any other (`available`, `pending`, `sold`, in any order), except while the store's orders hold the animal: while it has an open order (`placed` or `approved`) a patch that changes its status answers 409 `pet_has_open_order`, and once a delivered order sold it, 409 `pet_sold_by_order`. Its name and category may still change, and a patch giving the status it already has is no change of status.
         *
         *     **Lost updates.** Send the `ETag` you received (from `createPet`, `getPet` or an earlier change) in `If-Match`: the check and the write are one atomic step, so of two clients changing the same state, exactly one succeeds and the other gets 412 `precondition_failed`. Without `If-Match` the request applies unconditionally (last write wins). A missing animal is 404 whatever `If-Match` says.
         *
         *     **Requires scope `pets:write`** (add, change and remove animals); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        patch: operations["updatePet"];
        trace?: never;
    };
    "/store/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Returns at most `limit` orders in ascending id order, optionally only those with a `status` or for one animal (`petId`); both filters combine.
         *
         *     **Pagination.** As for `listPets`: when more orders follow, the response carries `Link: </v1/store/orders?…&cursor=…>; rel="next"` (RFC 8288); follow it until no such link comes. The body stays a bare JSON array. A walk returns every matching order that existed when it began exactly once, in id order; one placed during the walk may or may not come (on PostgreSQL ids commit in any order); a client that must mirror the orders exactly follows the events feed. Cursors are signed and bound to the filters; `limit` may change between pages.
         *
         *     **Requires scope `orders:read`** (read the store's orders); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Place an order for an animal
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Places an order for an available animal, which becomes `pending` in the same transaction. The body is checked as strictly as `createPet`'s: only `petId`, an integer.
         *
         *     An order and its animal change in one transaction: no reader ever sees one changed without the other. Of concurrent requests that would both succeed alone (two orders for one animal, a `cancel` racing a `deliver`), exactly one does and the others answer 409, on any number of instances.
         *
         *     **Requires scope `orders:write`** (place and change the store's orders); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["placeOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch one order
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Answers the order with this id. Orders are never removed, also when their animal is.
         *
         *     **Requires scope `orders:read`** (read the store's orders); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders/{orderId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve an order
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Approves a `placed` order. The animal stays `pending`.
         *
         *     Takes no body (an empty JSON object `{}` is accepted too). Answers the order as it now is. An order and its animal change in one transaction: no reader ever sees one changed without the other. Of concurrent requests that would both succeed alone (two orders for one animal, a `cancel` racing a `deliver`), exactly one does and the others answer 409, on any number of instances.
         *
         *     **Requires scope `orders:write`** (place and change the store's orders); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["approveOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders/{orderId}/deliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an order
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Delivers an `approved` order: the animal becomes `sold`, for good.
         *
         *     Takes no body (an empty JSON object `{}` is accepted too). Answers the order as it now is. An order and its animal change in one transaction: no reader ever sees one changed without the other. Of concurrent requests that would both succeed alone (two orders for one animal, a `cancel` racing a `deliver`), exactly one does and the others answer 409, on any number of instances.
         *
         *     **Requires scope `orders:write`** (place and change the store's orders); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["deliverOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders/{orderId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an order
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Cancels an open (`placed` or `approved`) order: the animal becomes `available` again.
         *
         *     Takes no body (an empty JSON object `{}` is accepted too). Answers the order as it now is. An order and its animal change in one transaction: no reader ever sees one changed without the other. Of concurrent requests that would both succeed alone (two orders for one animal, a `cancel` racing a `deliver`), exactly one does and the others answer 409, on any number of instances.
         *
         *     **Requires scope `orders:write`** (place and change the store's orders); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["cancelOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the store's changes
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     The store's changes as a feed, oldest first: every change of an animal or an order is recorded as one event in the same transaction as the change (a change that rolls back leaves none), and stays in the feed until it is purged (**Retention**, below).
         *
         *     **Reading it.** Without `cursor` the feed starts at the oldest event kept; `start=latest` answers no event, only the position after the newest one. Every answer, an empty one too, carries `Link: <…>; rel="next"`: after the last event it returned, or, when it returned none, at the same position (with a `type` filter, or a key that reads one kind of event: past the events of other types it read, at most 1,000 an answer, so a rare type never costs a read of the whole feed). Store that one cursor and ask again from it, now or later: the feed never ends.
         *
         *     **Exact.** A reader that follows the links never misses an event and never sees one twice, however many instances write at once: an event is shown only once every change that could still come before it has ended. So the feed's order is the order changes became final, which need not be the order of ids.
         *
         *     **Retention.** Events are kept `EVENT_RETENTION_DAYS` (30 by default), then purged, oldest first. A cursor whose next events were purged answers 410 `cursor_expired`, so a reader knows it missed events rather than skipping them silently; an old cursor that missed nothing (an idle feed's) stays valid.
         *
         *     **Waiting for events.** `wait=N` (a long poll) holds an answer that would hold no event until one is there or N seconds have passed. A stream (`Accept: text/event-stream`) sends every event as it comes, and stays open. Either learns of a change made through the same instance at once, and of one made through another instance within about a second (at once with Redis); an event may take as long as the change before it to show (**Exact**, above).
         *
         *     **Scopes.** Animal events (`pet.*`) need `pets:read`, order events (`order.*`) `orders:read`. Events a key may not read are left out of its answers; asking only for types it may not read (`type=order.*` with `pets:read` alone) answers 403 `insufficient_scope`.
         *
         *     **Requires scope `pets:read` (list and fetch animals) or `orders:read` (read the store's orders)**; a key with neither gets 403 `insufficient_scope`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Returns at most `limit` webhook endpoints in ascending id order, without their secrets. When more follow, the answer carries `Link: </v1/webhook-endpoints?…&cursor=…>; rel="next"`. A store has at most 100, so `limit=100` answers them all at once (an endpoint added while a client follows the links may be passed).
         *
         *     **Requires scope `webhooks:read`** (read the store's webhook endpoints and their deliveries); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Adds a webhook endpoint, enabled, and answers it with its signing secret (`whsec_…`). **The secret is shown only in this answer**: store it now; `rotateWebhookEndpointSecret` makes a new one.
         *
         *     **Retried with the same `Idempotency-Key`**, it answers the first answer again, secret included, as long as that secret is still the endpoint's; once it has been rotated (or the endpoint removed) the retry answers 409 `webhook_secret_superseded` instead, never a replaced secret. The idempotency record keeps the secret's SHA-256 only, not the secret.
         *
         *     **What it receives.** `events` names exact types or groups (`pet.*`); the endpoint receives those the API key that set them could read (`allowedTypes`: `pets:read` for pet events, `orders:read` for order events), whatever becomes of that key later. Types the key may not read are left out; naming only such types answers 403 `insufficient_scope`.
         *
         *     **Which URLs are accepted.** An absolute `https` URL of at most 2048 characters, any port, without user name or password (the signature authenticates the sender), without fragment, and without an empty label in its host name (`a..b.example`). Its host must be public: an IP address that is loopback, private, link-local, unique-local, carrier-grade NAT, multicast, unspecified, reserved or otherwise not public unicast (IPv4-mapped and IPv4-compatible IPv6 addresses, `::ffff:0:0/96` and `::/96`, included) is refused, and so is a name that resolves to any such address (DNS is asked; `localhost` and names under `.localhost` are loopback and refused without asking). A name that does not resolve (yet), or whose lookup takes more than 2 s, is accepted: every delivery checks the address it connects to again. At most 2 such lookups of one API key run at once on an instance: while they do, another URL of that key that needs one answers 503 `service_unavailable` with `Retry-After` (nothing is written): retry then. At most 16 run at once on an instance, of all keys: while they all do, a URL is accepted without its lookup, as a name that does not resolve yet is (every delivery checks the address). The hosts the operator lists in `WEBHOOK_ALLOWED_HOSTS` (none by default) are exempt from the address check and may use `http` too. A refused URL answers 400 `validation_failed` naming `body.url` and why.
         *
         *     **Requires scope `webhooks:write`** (add, change and remove webhook endpoints); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch one webhook endpoint
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Answers the webhook endpoint with this id, without its secret.
         *
         *     **Requires scope `webhooks:read`** (read the store's webhook endpoints and their deliveries); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Remove a webhook endpoint
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Removes a webhook endpoint for good, with its deliveries, pending ones included, and their attempts: none is sent any more (one already on its way may still arrive). Its id is never given to another endpoint.
         *
         *     **Requires scope `webhooks:write`** (add, change and remove webhook endpoints); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Changes a webhook endpoint with a JSON Merge Patch (RFC 7396), as `application/merge-patch+json` (or `application/json`): `url`, `events`, `description` (`null` removes it), `status`. Answers the endpoint as it now is, without its secret unless the change widened `allowedTypes` (below).
         *
         *     **Who answers for what it receives.** A patch that sets `url` or `events` sets `allowedTypes` again from what this request's key may read of the endpoint's `events` (a key reading pets only that sets the `url` of an endpoint receiving `pet.*` and `order.*` leaves it receiving pet events only; one that may read none of its `events` gets 403 `insufficient_scope`): a key cannot point an endpoint that receives what it may not read at a URL of its choosing. In the same change, the endpoint's pending deliveries of types it no longer receives become `failed`, unsent (test messages stay pending). A patch of `description` or `status` alone leaves `allowedTypes` as it was.
         *
         *     **Widening replaces the secret.** A patch that gives `allowedTypes` a type it did not have (a key with `orders:read` setting the `url` of an endpoint a pets-only key made with `order.*` in its `events`) also replaces the signing secret, at once and without overlap: the old secret, and a previous one still signing after a rotation, sign nothing more, since a key that could not read the new types may know them. The answer then carries the new `secret`, **shown only in this answer**: give it to the receiver now. A retry with the same `Idempotency-Key` answers it again while it is still the endpoint's, then 409 `webhook_secret_superseded`; the idempotency record keeps its SHA-256 only.
         *
         *     **Status.** `disabled` stops deliveries: its pending ones become `failed` at once, as when the service disables an endpoint, and `test` or a retry by hand answers 409 `webhook_endpoint_disabled`. `enabled` starts deliveries again for the events that come after it, and clears `disabledReason` and the endpoint's run of failures; it revives no failed delivery: events of the time it was disabled are not sent (retry them by hand once it is enabled).
         *
         *     **Which URLs are accepted.** An absolute `https` URL of at most 2048 characters, any port, without user name or password (the signature authenticates the sender), without fragment, and without an empty label in its host name (`a..b.example`). Its host must be public: an IP address that is loopback, private, link-local, unique-local, carrier-grade NAT, multicast, unspecified, reserved or otherwise not public unicast (IPv4-mapped and IPv4-compatible IPv6 addresses, `::ffff:0:0/96` and `::/96`, included) is refused, and so is a name that resolves to any such address (DNS is asked; `localhost` and names under `.localhost` are loopback and refused without asking). A name that does not resolve (yet), or whose lookup takes more than 2 s, is accepted: every delivery checks the address it connects to again. At most 2 such lookups of one API key run at once on an instance: while they do, another URL of that key that needs one answers 503 `service_unavailable` with `Retry-After` (nothing is written): retry then. At most 16 run at once on an instance, of all keys: while they all do, a URL is accepted without its lookup, as a name that does not resolve yet is (every delivery checks the address). The hosts the operator lists in `WEBHOOK_ALLOWED_HOSTS` (none by default) are exempt from the address check and may use `http` too. A refused URL answers 400 `validation_failed` naming `body.url` and why.
         *
         *     **Requires scope `webhooks:write`** (add, change and remove webhook endpoints); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a webhook endpoint's signing secret
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Gives the endpoint a new signing secret and answers it, **shown only in this answer**. For 24 hours (`previousSecretExpiresAt`) deliveries carry a signature made with the secret it replaced beside one made with the new one, so receivers can switch without losing any. A second rotation within those hours ends the oldest secret at once: only the two newest secrets ever sign.
         *
         *     **Refused** with 403 `insufficient_scope` when this request's key may not read every event type the endpoint receives (its `allowedTypes`: `pets:read` for pet events, `orders:read` for order events): with the secret it could sign such events itself. The challenge names the scopes it lacks.
         *
         *     **Retried with the same `Idempotency-Key`**, it answers the first answer again, secret included, as long as that secret is still the endpoint's; once it has been rotated (or the endpoint removed) the retry answers 409 `webhook_secret_superseded` instead, never a replaced secret. The idempotency record keeps the secret's SHA-256 only, not the secret.
         *
         *     **Requires scope `webhooks:write`** (add, change and remove webhook endpoints); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook endpoint's deliveries
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Returns at most `limit` deliveries of the endpoint, newest first, optionally only those in one state (`outcome`). Each delivery is one message (an event, or a test) to this endpoint with its last attempts, newest first: when each was made, how long it took, and the receiver's status or why there was none.
         *
         *     **What a key sees.** Only the deliveries of event types this request's key may read (`pets:read` for pet events, `orders:read` for order events), and the test messages: a delivery tells its event's type, id and time, and how the receiver answered. A key with `webhooks:read` alone sees the test messages only.
         *
         *     **Pagination.** When more deliveries follow, the response carries `Link: </v1/webhook-endpoints/{endpointId}/deliveries?…&cursor=…>; rel="next"`; follow it until no such link comes. Deliveries are kept `EVENT_RETENTION_DAYS` once settled.
         *
         *     **Requires scope `webhooks:read`** (read the store's webhook endpoints and their deliveries); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again now
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Sends the delivery again now, whatever its state (a failed one, a succeeded one, a pending one waiting for its next attempt), with the same `webhook-id` and body. It becomes `pending`, due now; answers 202 with it before it is sent. A delivery whose retry schedule was done gets one more attempt.
         *
         *     **Refused.** 404 `webhook_delivery_not_found` when this request's key may not read the delivery's event type (`pets:read` for a pet event, `orders:read` for an order event; a `webhook.test` needs neither), as for a delivery that does not exist: the deliveries listing leaves such deliveries out, and so does this. 403 `insufficient_scope` when the key may read the type but the endpoint no longer receives it (its `allowedTypes` were narrowed since, by a change of its `url` or `events`); the challenge names the scope. 409 `webhook_endpoint_disabled` when the endpoint is disabled: enable it first. 409 `webhook_delivery_in_flight` while an attempt of this delivery is being sent (its dispatcher holds it): retry after that attempt ends (its outcome shows in the deliveries); an attempt whose dispatcher died does not hold it past its lease.
         *
         *     **Requires scope `webhooks:write`** (add, change and remove webhook endpoints); a key without it gets 403 `insufficient_scope`.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test message to a webhook endpoint
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Sends a `webhook.test` message to the endpoint now (see the `webhook.test` entry of the document's `webhooks`), signed like every delivery, under a `webhook-id` of its own, so an integrator can check a receiver. Answers 202 with the delivery before it is sent; its attempts show in the endpoint's deliveries. Like any delivery it is retried on failure. A disabled endpoint answers 409 `webhook_endpoint_disabled` (nothing would send it): enable it first.
         *
         *     **Requires scope `webhooks:write`** (add, change and remove webhook endpoints); a key without it gets 403 `insufficient_scope`.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Returns at most `limit` API keys in ascending id order, revoked and expired ones included, without the keys themselves. When more follow, the answer carries `Link: </v1/api-keys?…&cursor=…>; rel="next"`.
         *
         *     **Requires scope `keys:manage`** (list, create and revoke API keys, none holding a scope the key lacks); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Make an API key
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Makes an API key with `name`, `scopes` (at least one) and, optionally, `expiresAt`, and answers it with the key itself. **The key is shown only in this answer**: store it now. It works on every instance at once (within about a second).
         *
         *     **Retried with the same `Idempotency-Key`**, it makes no second key and answers 409 `api_key_already_issued`, naming the key the first request made: that key is not shown again. The idempotency record keeps the key's SHA-256 only, not the key.
         *
         *     **A key hands out no more than it holds.** A key creates no key with a scope it lacks itself, nor one that outlives it (a key that expires makes only keys that expire no later), and revokes no key holding a scope it lacks: those answer 403 `insufficient_scope` (naming the scopes in `WWW-Authenticate`) or 400. The operator's CLI (`animal-store keys create | list | revoke`) has no such limits.
         *
         *     **Requires scope `keys:manage`** (list, create and revoke API keys, none holding a scope the key lacks); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API key making the request
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Answers the API key that made this request: its id, name, prefix, scopes and expiry. A client (the console, a script) learns from it what it may do before trying.
         *
         *     **Any valid key** may call it, whatever its scopes.
         */
        get: operations["getCurrentApiKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch one API key
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Answers the API key with this id, without the key itself.
         *
         *     **Requires scope `keys:manage`** (list, create and revoke API keys, none holding a scope the key lacks); a key without it gets 403 `insufficient_scope`.
         */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description **Beta.** It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).
         *
         *     Revokes an API key: from this answer on, this instance refuses it, and so does every instance subscribed to the fleet's Redis (REDIS_URL); any other instance refuses it within KEY_CACHE_TTL_MS. A revoked key stays listed with its `revokedAt`. Revoking a key already revoked answers 204 again and keeps the first `revokedAt`. A key may revoke itself.
         *
         *     **A key hands out no more than it holds.** A key creates no key with a scope it lacks itself, nor one that outlives it (a key that expires makes only keys that expire no later), and revokes no key holding a scope it lacks: those answer 403 `insufficient_scope` (naming the scopes in `WWW-Authenticate`) or 400. The operator's CLI (`animal-store keys create | list | revoke`) has no such limits.
         *
         *     **Requires scope `keys:manage`** (list, create and revoke API keys, none holding a scope the key lacks); a key without it gets 403 `insufficient_scope`.
         *
         *     **Idempotent with `Idempotency-Key`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (24 hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, `Location`, `ETag`) with `Idempotent-Replayed: true`, and changes nothing; while the first still runs it answers 409 `idempotency_key_in_use` with `Retry-After: 1`; the same key with another request answers 422 `idempotency_key_reused`. Successes and the answers 404 and 409 are kept and replayed; answers that changed nothing (400, 401, 403, 412, 413, 415, 429, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    event: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An event of the store
         * @description Sent to each enabled webhook endpoint whose events include the event's type, as a POST whose body is the Event exactly as `GET /v1/events` shows it. **Beta.** At least once and in no particular order: a receiver deduplicates by `webhook-id`. It succeeds on any 2xx within 15 s; redirects are not followed; other answers are retried on the schedule `WEBHOOK_RETRY_SCHEDULE`, later if a 429 or 503 carries `Retry-After`; 410 disables the endpoint. Signed as Standard Webhooks says (standardwebhooks.com): verify with any Standard Webhooks library, or the client's `verifyWebhook`.
         */
        post: operations["receiveEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test message
         * @description Sent when `POST /v1/webhook-endpoints/{endpointId}/test` asks for it, signed and retried like an event. **Beta.** At least once and in no particular order: a receiver deduplicates by `webhook-id`. It succeeds on any 2xx within 15 s; redirects are not followed; other answers are retried on the schedule `WEBHOOK_RETRY_SCHEDULE`, later if a 429 or 503 carries `Retry-After`; 410 disables the endpoint. Signed as Standard Webhooks says (standardwebhooks.com): verify with any Standard Webhooks library, or the client's `verifyWebhook`.
         */
        post: operations["receiveTestMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description Availability of an animal. `updatePet` may set any status, except while the store's orders hold the animal: an open order keeps it `pending`, and a delivered order keeps it `sold` (see the `store` tag).
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /**
         * @description An animal to add. Fields are checked strictly: no type is converted (`"5"` is not an integer), `null` is not a value, an unknown field is rejected by name, and `id` is rejected because the service assigns it.
         * @example {
         *       "name": "Rex",
         *       "categoryId": 3,
         *       "status": "available"
         *     }
         */
        NewPet: {
            /**
             * @description The animal's name: 1 to 200 characters (Unicode code points, so an emoji counts once), not only white space, without NUL or unpaired surrogates. It needs at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069). Stored and returned exactly as sent, without trimming.
             * @example Rex
             */
            name: string;
            /**
             * Format: int64
             * @description Identifier of the category the animal belongs to: an integer from 1 to 2^53−1 (9007199254740991), the largest that every JSON client reads exactly. Category records themselves are not part of this API yet.
             * @example 3
             */
            categoryId: number;
            /**
             * @description Availability status; `available` when omitted.
             * @default available
             * @enum {string}
             */
            status?: "available" | "pending" | "sold";
        };
        /**
         * @description A JSON Merge Patch (RFC 7396) of an animal: the fields given replace the stored ones, the others stay. Checked as strictly as `NewPet`: no type is converted, an unknown field is rejected by name, and `id` is rejected because it never changes. `null`, which in a merge patch removes a field, is refused: every field of a pet is required. An empty patch `{}` is refused too.
         * @example {
         *       "status": "sold"
         *     }
         * @example {
         *       "name": "Rex II",
         *       "categoryId": 4
         *     }
         */
        PetPatch: {
            /**
             * @description The animal's name: 1 to 200 characters (Unicode code points, so an emoji counts once), not only white space, without NUL or unpaired surrogates. It needs at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069). Stored and returned exactly as sent, without trimming.
             * @example Rex
             */
            name?: string;
            /**
             * Format: int64
             * @description Identifier of the category the animal belongs to: an integer from 1 to 2^53−1 (9007199254740991), the largest that every JSON client reads exactly. Category records themselves are not part of this API yet.
             * @example 3
             */
            categoryId?: number;
            status?: components["schemas"]["PetStatus"];
        };
        /**
         * @example {
         *       "id": 42,
         *       "name": "Rex",
         *       "categoryId": 3,
         *       "status": "available"
         *     }
         */
        Pet: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service: it grows with each new animal and is never reused.
             * @example 42
             */
            id: number;
            /**
             * @description The animal's name: 1 to 200 characters (Unicode code points, so an emoji counts once), not only white space, without NUL or unpaired surrogates. It needs at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069). Stored and returned exactly as sent, without trimming.
             * @example Rex
             */
            name: string;
            /**
             * Format: int64
             * @description Identifier of the category the animal belongs to: an integer from 1 to 2^53−1 (9007199254740991), the largest that every JSON client reads exactly. Category records themselves are not part of this API yet.
             * @example 3
             */
            categoryId: number;
            status: components["schemas"]["PetStatus"];
        };
        /**
         * @description A page of animals in ascending id order. When more follow, the response carries a `Link` header with `rel="next"`.
         * @example [
         *       {
         *         "id": 41,
         *         "name": "Bella",
         *         "categoryId": 1,
         *         "status": "available"
         *       },
         *       {
         *         "id": 42,
         *         "name": "Rex",
         *         "categoryId": 3,
         *         "status": "available"
         *       }
         *     ]
         */
        Pets: components["schemas"]["Pet"][];
        /**
         * @description Where an order is: `placed` and `approved` are open (the animal is `pending`); `delivered` (the animal is `sold`) and `cancelled` (the animal is `available` again) are final. See the `store` tag for the transitions.
         * @enum {string}
         */
        OrderStatus: "placed" | "approved" | "delivered" | "cancelled";
        /**
         * @description An order to place. Checked as strictly as `NewPet`: `"42"` is not an integer, `null` is not a value, and any other field (`id`, `status`, a typo) is refused by name.
         * @example {
         *       "petId": 42
         *     }
         */
        NewOrder: {
            /**
             * Format: int64
             * @description The animal ordered: an integer from 1 to 2^53−1.
             * @example 42
             */
            petId: number;
        };
        /**
         * @description An order of the store for one animal. **Beta.**
         * @example {
         *       "id": 7,
         *       "petId": 42,
         *       "status": "placed",
         *       "createdAt": "2026-11-26T09:30:00.000Z",
         *       "updatedAt": "2026-11-26T09:30:00.000Z"
         *     }
         */
        Order: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service: it grows with each new order and is never reused.
             * @example 7
             */
            id: number;
            /**
             * Format: int64
             * @description The animal ordered. It stays as it was when the animal is removed later (possible once the order is closed).
             * @example 42
             */
            petId: number;
            status: components["schemas"]["OrderStatus"];
            /**
             * Format: date-time
             * @description When the order was placed: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-26T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the order last changed status (its placement at first): RFC 3339, UTC, millisecond precision.
             * @example 2026-11-26T09:30:00.000Z
             */
            updatedAt: string;
        };
        /** @description A page of orders in ascending id order. When more follow, the response carries a `Link` header with `rel="next"`. */
        Orders: components["schemas"]["Order"][];
        /**
         * @description What happened: `pet.created`, `pet.updated` (`changed` names the fields), `pet.deleted`; `order.placed`, `order.approved`, `order.delivered`, `order.cancelled`. An order action that changes its animal records both the order event and `pet.updated`.
         * @enum {string}
         */
        EventType: "pet.created" | "pet.updated" | "pet.deleted" | "order.placed" | "order.approved" | "order.delivered" | "order.cancelled";
        /**
         * @description A change of the store. **Beta.**
         * @example {
         *       "id": 1042,
         *       "type": "pet.updated",
         *       "occurredAt": "2026-11-27T09:30:00.000Z",
         *       "data": {
         *         "id": 42,
         *         "name": "Rex",
         *         "categoryId": 3,
         *         "status": "pending"
         *       },
         *       "changed": [
         *         "status"
         *       ]
         *     }
         */
        Event: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service, never reused. The feed is ordered by its cursor, which need not be id order.
             * @example 1042
             */
            id: number;
            type: components["schemas"]["EventType"];
            /**
             * Format: date-time
             * @description When the change was written: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            occurredAt: string;
            /** @description The Pet (`pet.*`) or Order (`order.*`) as it is after the change; for `pet.deleted`, as it was when removed. */
            data: components["schemas"]["Pet"] | components["schemas"]["Order"];
            /** @description `pet.updated` only: the fields the change gave another value. A change that leaves every field as it was records no event. */
            changed?: ("name" | "categoryId" | "status")[];
        };
        /** @description A page of the feed, oldest first. Every answer carries `Link: <…>; rel="next"`, also an empty one: the feed never ends. */
        Events: components["schemas"]["Event"][];
        /**
         * @description The body of a test message (`POST /v1/webhook-endpoints/{endpointId}/test`): signed and sent like an event, with a `webhook-id` of its own, but no event of the feed.
         * @example {
         *       "type": "webhook.test",
         *       "occurredAt": "2026-11-27T09:30:00.000Z",
         *       "data": {
         *         "endpointId": 3,
         *         "message": "A test message from animal-store: this endpoint receives webhooks."
         *       }
         *     }
         */
        WebhookTestEvent: {
            /** @enum {string} */
            type: "webhook.test";
            /**
             * Format: date-time
             * @description When the test was asked for: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            occurredAt: string;
            data: {
                /**
                 * Format: int64
                 * @description The endpoint the test was sent to.
                 * @example 3
                 */
                endpointId: number;
                /** @description A fixed text saying what this is. */
                message: string;
            };
        };
        /** @description One message (an event, or a test) to one webhook endpoint, with its attempts. **Beta.** */
        WebhookDelivery: {
            /**
             * Format: int64
             * @description The delivery: one message to one endpoint.
             * @example 12
             */
            id: number;
            /**
             * Format: int64
             * @description The endpoint it goes to.
             * @example 3
             */
            endpointId: number;
            /**
             * @description The `webhook-id` header it is sent with, the same on every attempt: `evt_<event id>` for an event, `msg_test_…` for a test.
             * @example evt_1234
             */
            messageId: string;
            eventId: number | null;
            /**
             * @description The event's type, or `webhook.test`.
             * @example pet.created
             */
            eventType: string;
            /** @description `pending`: an attempt is due (at `nextAttemptAt`); `succeeded`: a receiver answered 2xx; `failed`: every attempt of the schedule failed, the receiver answered 410, or its endpoint was disabled. */
            state: "pending" | "succeeded" | "failed";
            /** @description Attempts made so far. */
            attemptCount: number;
            nextAttemptAt: string | null;
            /**
             * Format: date-time
             * @description When the delivery was made (the event fanned out, or the test asked for).
             * @example 2026-11-27T09:30:00.000Z
             */
            createdAt: string;
            lastAttemptAt: string | null;
            /** @description The last 10 attempts, newest first. */
            attempts: {
                /**
                 * Format: date-time
                 * @description When the attempt started.
                 * @example 2026-11-27T09:30:00.000Z
                 */
                attemptedAt: string;
                /** @description How long the attempt took, until the answer's status line or the failure. */
                durationMs: number;
                /** @description `succeeded`: the receiver answered 2xx. */
                outcome: "succeeded" | "failed";
                statusCode: number | null;
                error: string | null;
            }[];
        };
        /**
         * @description A webhook endpoint to add. Checked strictly: no type is converted, `null` is not a value, and any other field is refused by name.
         * @example {
         *       "url": "https://example.com/webhooks",
         *       "events": [
         *         "pet.*",
         *         "order.delivered"
         *       ],
         *       "description": "Shop front: drop sold animals"
         *     }
         */
        NewWebhookEndpoint: {
            /**
             * @description Where events are sent (POST): an absolute `https` URL of at most 2048 characters, without user name, password or fragment, whose host is public (see "Which URLs are accepted" in the tag's description). Stored and answered as the URL standard normalises it (`HTTPS://Example.COM` becomes `https://example.com/`).
             * @example https://example.com/webhooks
             */
            url: string;
            /**
             * @description The event types to receive: each an exact type (`order.delivered`) or a group (`pet.*`, `order.*`); one given twice counts once (it is kept once). The endpoint receives those of them that the API key which set them could read (`allowedTypes`); naming only types that key may not read answers 403 `insufficient_scope`.
             * @example [
             *       "pet.*",
             *       "order.delivered"
             *     ]
             */
            events: ("pet.created" | "pet.updated" | "pet.deleted" | "order.placed" | "order.approved" | "order.delivered" | "order.cancelled" | "pet.*" | "order.*")[];
            /**
             * @description What the endpoint is for, for the people managing it: 1 to 500 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069).
             * @example Shop front: drop sold animals
             */
            description?: string;
        };
        /**
         * @description A JSON Merge Patch (RFC 7396) of a webhook endpoint: the fields given replace the stored ones, the others stay. `description: null` removes the description; `null` is refused for the other fields, which every endpoint has. `status: "enabled"` also clears `disabledReason`. An empty patch `{}` is refused.
         * @example {
         *       "status": "enabled"
         *     }
         * @example {
         *       "events": [
         *         "order.*"
         *       ],
         *       "description": null
         *     }
         */
        WebhookEndpointPatch: {
            /**
             * @description Where events are sent (POST): an absolute `https` URL of at most 2048 characters, without user name, password or fragment, whose host is public (see "Which URLs are accepted" in the tag's description). Stored and answered as the URL standard normalises it (`HTTPS://Example.COM` becomes `https://example.com/`).
             * @example https://example.com/webhooks
             */
            url?: string;
            /**
             * @description The event types to receive: each an exact type (`order.delivered`) or a group (`pet.*`, `order.*`); one given twice counts once (it is kept once). The endpoint receives those of them that the API key which set them could read (`allowedTypes`); naming only types that key may not read answers 403 `insufficient_scope`.
             * @example [
             *       "pet.*",
             *       "order.delivered"
             *     ]
             */
            events?: ("pet.created" | "pet.updated" | "pet.deleted" | "order.placed" | "order.approved" | "order.delivered" | "order.cancelled" | "pet.*" | "order.*")[];
            /** @description A new description, or `null` to remove it. */
            description?: string | null;
            /**
             * @description `enabled`: events are delivered. `disabled`: none are (by a request, or by the service when the receiver answered 410 or failed for days; `disabledReason` then says why).
             * @enum {string}
             */
            status?: "enabled" | "disabled";
        };
        /**
         * @description A URL the store sends its events to. Its signing secret is shown only by `createWebhookEndpoint`, `rotateWebhookEndpointSecret`, and an `updateWebhookEndpoint` that widens `allowedTypes` (which replaces it). **Beta.**
         * @example {
         *       "id": 1,
         *       "url": "https://example.com/webhooks",
         *       "description": "Shop front: drop sold animals",
         *       "events": [
         *         "pet.*",
         *         "order.delivered"
         *       ],
         *       "allowedTypes": [
         *         "pet.created",
         *         "pet.updated",
         *         "pet.deleted",
         *         "order.delivered"
         *       ],
         *       "status": "enabled",
         *       "createdAt": "2026-11-27T09:30:00.000Z",
         *       "updatedAt": "2026-11-27T09:30:00.000Z"
         *     }
         */
        WebhookEndpoint: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service, never reused.
             * @example 1
             */
            id: number;
            /**
             * @description Where events are sent (POST): an absolute `https` URL of at most 2048 characters, without user name, password or fragment, whose host is public (see "Which URLs are accepted" in the tag's description). Stored and answered as the URL standard normalises it (`HTTPS://Example.COM` becomes `https://example.com/`).
             * @example https://example.com/webhooks
             */
            url: string;
            /**
             * @description What the endpoint is for, for the people managing it: 1 to 500 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069).
             * @example Shop front: drop sold animals
             */
            description?: string;
            /**
             * @description The event types to receive: each an exact type (`order.delivered`) or a group (`pet.*`, `order.*`); one given twice counts once (it is kept once). The endpoint receives those of them that the API key which set them could read (`allowedTypes`); naming only types that key may not read answers 403 `insufficient_scope`.
             * @example [
             *       "pet.*",
             *       "order.delivered"
             *     ]
             */
            events: ("pet.created" | "pet.updated" | "pet.deleted" | "order.placed" | "order.approved" | "order.delivered" | "order.cancelled" | "pet.*" | "order.*")[];
            /** @description The exact event types this endpoint receives: those `events` names that the API key which last set `url` or `events` could read (`pets:read` for `pet.*`, `orders:read` for `order.*`). Kept whatever becomes of that key. */
            allowedTypes: components["schemas"]["EventType"][];
            /**
             * @description `enabled`: events are delivered. `disabled`: none are (by a request, or by the service when the receiver answered 410 or failed for days; `disabledReason` then says why).
             * @enum {string}
             */
            status: "enabled" | "disabled";
            /** @description Why the service disabled the endpoint; absent when enabled, or disabled by a request. */
            disabledReason?: string;
            /**
             * Format: date-time
             * @description After a rotation: until when the secret it replaced still signs deliveries beside the new one (24 hours). Absent when only one secret signs.
             * @example 2026-11-27T09:30:00.000Z
             */
            previousSecretExpiresAt?: string;
            /**
             * Format: date-time
             * @description When the endpoint was added: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last changed (its secret included): RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            updatedAt: string;
        };
        /** @description A page of webhook endpoints in ascending id order. When more follow, the response carries a `Link` header with `rel="next"`. */
        WebhookEndpoints: components["schemas"]["WebhookEndpoint"][];
        /**
         * @description A webhook endpoint with its signing secret, answered once: when it is added, and when its secret is rotated. **Beta.**
         * @example {
         *       "id": 1,
         *       "url": "https://example.com/webhooks",
         *       "description": "Shop front: drop sold animals",
         *       "events": [
         *         "pet.*",
         *         "order.delivered"
         *       ],
         *       "allowedTypes": [
         *         "pet.created",
         *         "pet.updated",
         *         "pet.deleted",
         *         "order.delivered"
         *       ],
         *       "status": "enabled",
         *       "createdAt": "2026-11-27T09:30:00.000Z",
         *       "updatedAt": "2026-11-27T09:30:00.000Z",
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/CbPu7VkBRg="
         *     }
         */
        WebhookEndpointWithSecret: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service, never reused.
             * @example 1
             */
            id: number;
            /**
             * @description Where events are sent (POST): an absolute `https` URL of at most 2048 characters, without user name, password or fragment, whose host is public (see "Which URLs are accepted" in the tag's description). Stored and answered as the URL standard normalises it (`HTTPS://Example.COM` becomes `https://example.com/`).
             * @example https://example.com/webhooks
             */
            url: string;
            /**
             * @description What the endpoint is for, for the people managing it: 1 to 500 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069).
             * @example Shop front: drop sold animals
             */
            description?: string;
            /**
             * @description The event types to receive: each an exact type (`order.delivered`) or a group (`pet.*`, `order.*`); one given twice counts once (it is kept once). The endpoint receives those of them that the API key which set them could read (`allowedTypes`); naming only types that key may not read answers 403 `insufficient_scope`.
             * @example [
             *       "pet.*",
             *       "order.delivered"
             *     ]
             */
            events: ("pet.created" | "pet.updated" | "pet.deleted" | "order.placed" | "order.approved" | "order.delivered" | "order.cancelled" | "pet.*" | "order.*")[];
            /** @description The exact event types this endpoint receives: those `events` names that the API key which last set `url` or `events` could read (`pets:read` for `pet.*`, `orders:read` for `order.*`). Kept whatever becomes of that key. */
            allowedTypes: components["schemas"]["EventType"][];
            /**
             * @description `enabled`: events are delivered. `disabled`: none are (by a request, or by the service when the receiver answered 410 or failed for days; `disabledReason` then says why).
             * @enum {string}
             */
            status: "enabled" | "disabled";
            /** @description Why the service disabled the endpoint; absent when enabled, or disabled by a request. */
            disabledReason?: string;
            /**
             * Format: date-time
             * @description After a rotation: until when the secret it replaced still signs deliveries beside the new one (24 hours). Absent when only one secret signs.
             * @example 2026-11-27T09:30:00.000Z
             */
            previousSecretExpiresAt?: string;
            /**
             * Format: date-time
             * @description When the endpoint was added: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last changed (its secret included): RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            updatedAt: string;
            /**
             * @description The signing secret (Standard Webhooks): `whsec_` and the base64 of 32 random bytes; a receiver keys HMAC-SHA256 with the decoded bytes. **Shown only in this answer**: store it now.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/CbPu7VkBRg=
             */
            secret: string;
        };
        /**
         * @description A webhook endpoint as a change left it; with its new signing secret only when the change widened `allowedTypes`, which replaces the secret. **Beta.**
         * @example {
         *       "id": 1,
         *       "url": "https://example.com/webhooks",
         *       "description": "Shop front: drop sold animals",
         *       "events": [
         *         "pet.*",
         *         "order.delivered"
         *       ],
         *       "allowedTypes": [
         *         "pet.created",
         *         "pet.updated",
         *         "pet.deleted",
         *         "order.delivered"
         *       ],
         *       "status": "enabled",
         *       "createdAt": "2026-11-27T09:30:00.000Z",
         *       "updatedAt": "2026-11-27T09:30:00.000Z"
         *     }
         * @example {
         *       "id": 1,
         *       "url": "https://example.com/webhooks",
         *       "description": "Shop front: drop sold animals",
         *       "events": [
         *         "pet.*",
         *         "order.delivered"
         *       ],
         *       "allowedTypes": [
         *         "pet.created",
         *         "pet.updated",
         *         "pet.deleted",
         *         "order.delivered"
         *       ],
         *       "status": "enabled",
         *       "createdAt": "2026-11-27T09:30:00.000Z",
         *       "updatedAt": "2026-11-27T09:30:00.000Z",
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/CbPu7VkBRg="
         *     }
         */
        UpdatedWebhookEndpoint: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service, never reused.
             * @example 1
             */
            id: number;
            /**
             * @description Where events are sent (POST): an absolute `https` URL of at most 2048 characters, without user name, password or fragment, whose host is public (see "Which URLs are accepted" in the tag's description). Stored and answered as the URL standard normalises it (`HTTPS://Example.COM` becomes `https://example.com/`).
             * @example https://example.com/webhooks
             */
            url: string;
            /**
             * @description What the endpoint is for, for the people managing it: 1 to 500 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069).
             * @example Shop front: drop sold animals
             */
            description?: string;
            /**
             * @description The event types to receive: each an exact type (`order.delivered`) or a group (`pet.*`, `order.*`); one given twice counts once (it is kept once). The endpoint receives those of them that the API key which set them could read (`allowedTypes`); naming only types that key may not read answers 403 `insufficient_scope`.
             * @example [
             *       "pet.*",
             *       "order.delivered"
             *     ]
             */
            events: ("pet.created" | "pet.updated" | "pet.deleted" | "order.placed" | "order.approved" | "order.delivered" | "order.cancelled" | "pet.*" | "order.*")[];
            /** @description The exact event types this endpoint receives: those `events` names that the API key which last set `url` or `events` could read (`pets:read` for `pet.*`, `orders:read` for `order.*`). Kept whatever becomes of that key. */
            allowedTypes: components["schemas"]["EventType"][];
            /**
             * @description `enabled`: events are delivered. `disabled`: none are (by a request, or by the service when the receiver answered 410 or failed for days; `disabledReason` then says why).
             * @enum {string}
             */
            status: "enabled" | "disabled";
            /** @description Why the service disabled the endpoint; absent when enabled, or disabled by a request. */
            disabledReason?: string;
            /**
             * Format: date-time
             * @description After a rotation: until when the secret it replaced still signs deliveries beside the new one (24 hours). Absent when only one secret signs.
             * @example 2026-11-27T09:30:00.000Z
             */
            previousSecretExpiresAt?: string;
            /**
             * Format: date-time
             * @description When the endpoint was added: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last changed (its secret included): RFC 3339, UTC, millisecond precision.
             * @example 2026-11-27T09:30:00.000Z
             */
            updatedAt: string;
            /**
             * @description The signing secret (Standard Webhooks): `whsec_` and the base64 of 32 random bytes; a receiver keys HMAC-SHA256 with the decoded bytes. Present only when this change widened `allowedTypes` (a type the endpoint did not receive before): the secret was replaced at once, the old one signs nothing more (it may be known to a key that could not read the new types). **Shown only in this answer**: store it now.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/CbPu7VkBRg=
             */
            secret?: string;
        };
        /**
         * @description An API key to make. Checked strictly: no type is converted, `null` is not a value, and any other field is refused by name.
         * @example {
         *       "name": "shop front",
         *       "scopes": [
         *         "pets:read",
         *         "orders:read"
         *       ]
         *     }
         */
        NewApiKey: {
            /**
             * @description What the key is for, for the people managing keys: 1 to 100 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069). White space around it is removed.
             * @example shop front
             */
            name: string;
            /**
             * @description What the key may do, each scope once: `pets:read` (list and fetch animals), `pets:write` (add, change and remove animals), `orders:read` (read the store's orders), `orders:write` (place and change the store's orders), `webhooks:read` (read the store's webhook endpoints and their deliveries), `webhooks:write` (add, change and remove webhook endpoints), `keys:manage` (list, create and revoke API keys, none holding a scope the key lacks). At least one; only scopes the API key making the request holds itself (403 `insufficient_scope` otherwise).
             * @example [
             *       "pets:read",
             *       "orders:read"
             *     ]
             */
            scopes: ("pets:read" | "pets:write" | "orders:read" | "orders:write" | "webhooks:read" | "webhooks:write" | "keys:manage")[];
            /**
             * Format: date-time
             * @description When the key stops working: RFC 3339, in the future. Absent: it never expires, unless the API key making the request expires, in which case the new key must expire no later than it (400 otherwise).
             * @example 2099-12-31T23:59:59Z
             */
            expiresAt?: string;
        };
        /**
         * @description An API key as the store keeps it: everything but the key itself, which only its creation answers. **Beta.**
         * @example {
         *       "id": 7,
         *       "name": "shop front",
         *       "prefix": "ask_Jx1Qm0Vb",
         *       "scopes": [
         *         "pets:read",
         *         "orders:read"
         *       ],
         *       "createdAt": "2026-11-28T09:30:00.000Z",
         *       "expiresAt": null,
         *       "lastUsedAt": null,
         *       "revokedAt": null
         *     }
         */
        ApiKey: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service, never reused.
             * @example 7
             */
            id: number;
            /**
             * @description What the key is for, for the people managing keys: 1 to 100 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069). White space around it is removed.
             * @example shop front
             */
            name: string;
            /**
             * @description The first 12 characters of the key (`ask_` and 8 more): enough to tell keys apart in listings and logs, never enough to use one.
             * @example ask_Jx1Qm0Vb
             */
            prefix: string;
            /**
             * @description What the key may do, each scope once: `pets:read` (list and fetch animals), `pets:write` (add, change and remove animals), `orders:read` (read the store's orders), `orders:write` (place and change the store's orders), `webhooks:read` (read the store's webhook endpoints and their deliveries), `webhooks:write` (add, change and remove webhook endpoints), `keys:manage` (list, create and revoke API keys, none holding a scope the key lacks).
             * @example [
             *       "pets:read",
             *       "orders:read"
             *     ]
             */
            scopes: ("pets:read" | "pets:write" | "orders:read" | "orders:write" | "webhooks:read" | "webhooks:write" | "keys:manage")[];
            /**
             * Format: date-time
             * @description When the key was made: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-28T09:30:00.000Z
             */
            createdAt: string;
            /** @description When the key stops working; `null` when it never expires. */
            expiresAt: string | null;
            /** @description About when the key last passed authentication: uses are written in batches (every KEY_LAST_USED_FLUSH_MS), so a use may take that long to show. `null` when never used since this was recorded. */
            lastUsedAt: string | null;
            /** @description When the key was revoked; `null` while it is not. */
            revokedAt: string | null;
        };
        /** @description A page of API keys in ascending id order, revoked and expired ones included. When more follow, the response carries a `Link` header with `rel="next"`. */
        ApiKeys: components["schemas"]["ApiKey"][];
        /**
         * @description A new API key with the key itself, answered once, when it is made. **Beta.**
         * @example {
         *       "id": 7,
         *       "name": "shop front",
         *       "prefix": "ask_Jx1Qm0Vb",
         *       "scopes": [
         *         "pets:read",
         *         "orders:read"
         *       ],
         *       "createdAt": "2026-11-28T09:30:00.000Z",
         *       "expiresAt": null,
         *       "lastUsedAt": null,
         *       "revokedAt": null,
         *       "key": "ask_Jx1Qm0Vb7rT2c9LwS4yZp8HdK3nF6gA5eU0oIiRtYq4"
         *     }
         */
        IssuedApiKey: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service, never reused.
             * @example 7
             */
            id: number;
            /**
             * @description What the key is for, for the people managing keys: 1 to 100 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069). White space around it is removed.
             * @example shop front
             */
            name: string;
            /**
             * @description The first 12 characters of the key (`ask_` and 8 more): enough to tell keys apart in listings and logs, never enough to use one.
             * @example ask_Jx1Qm0Vb
             */
            prefix: string;
            /**
             * @description What the key may do, each scope once: `pets:read` (list and fetch animals), `pets:write` (add, change and remove animals), `orders:read` (read the store's orders), `orders:write` (place and change the store's orders), `webhooks:read` (read the store's webhook endpoints and their deliveries), `webhooks:write` (add, change and remove webhook endpoints), `keys:manage` (list, create and revoke API keys, none holding a scope the key lacks).
             * @example [
             *       "pets:read",
             *       "orders:read"
             *     ]
             */
            scopes: ("pets:read" | "pets:write" | "orders:read" | "orders:write" | "webhooks:read" | "webhooks:write" | "keys:manage")[];
            /**
             * Format: date-time
             * @description When the key was made: RFC 3339, UTC, millisecond precision.
             * @example 2026-11-28T09:30:00.000Z
             */
            createdAt: string;
            /** @description When the key stops working; `null` when it never expires. */
            expiresAt: string | null;
            /** @description About when the key last passed authentication: uses are written in batches (every KEY_LAST_USED_FLUSH_MS), so a use may take that long to show. `null` when never used since this was recorded. */
            lastUsedAt: string | null;
            /** @description When the key was revoked; `null` while it is not. */
            revokedAt: string | null;
            /**
             * @description The key: `ask_` and 256 random bits in base64url, sent as `Authorization: Bearer <key>`. **Shown only in this answer**: the store keeps its SHA-256, never the key.
             * @example ask_Jx1Qm0Vb7rT2c9LwS4yZp8HdK3nF6gA5eU0oIiRtYq4
             */
            key: string;
        };
        /**
         * @description The API key that made the request: who it is and what it may do. **Beta.**
         * @example {
         *       "id": 7,
         *       "name": "shop front",
         *       "prefix": "ask_Jx1Qm0Vb",
         *       "scopes": [
         *         "pets:read",
         *         "orders:read"
         *       ],
         *       "expiresAt": null
         *     }
         */
        CurrentApiKey: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service, never reused.
             * @example 7
             */
            id: number;
            /**
             * @description What the key is for, for the people managing keys: 1 to 100 characters with at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069). White space around it is removed.
             * @example shop front
             */
            name: string;
            /**
             * @description The first 12 characters of the key (`ask_` and 8 more): enough to tell keys apart in listings and logs, never enough to use one.
             * @example ask_Jx1Qm0Vb
             */
            prefix: string;
            /**
             * @description What the key may do, each scope once: `pets:read` (list and fetch animals), `pets:write` (add, change and remove animals), `orders:read` (read the store's orders), `orders:write` (place and change the store's orders), `webhooks:read` (read the store's webhook endpoints and their deliveries), `webhooks:write` (add, change and remove webhook endpoints), `keys:manage` (list, create and revoke API keys, none holding a scope the key lacks).
             * @example [
             *       "pets:read",
             *       "orders:read"
             *     ]
             */
            scopes: ("pets:read" | "pets:write" | "orders:read" | "orders:write" | "webhooks:read" | "webhooks:write" | "keys:manage")[];
            /** @description When the key stops working; `null` when it never expires. */
            expiresAt: string | null;
        };
        /**
         * @example {
         *       "code": "validation_failed",
         *       "message": "body.categoryId must be an integer",
         *       "status": 400
         *     }
         */
        Error: {
            /**
             * @description Machine-readable, stable error code. The closed list:
             *
             *     - `validation_failed` (400): A parameter or the body is missing, has the wrong type, or breaks a limit.
             *     - `malformed_json` (400): The body is not valid JSON in UTF-8, is empty, holds a number that cannot be read exactly (it would be rounded), gives a field twice, or nests more than 256 levels deep.
             *     - `invalid_cursor` (400): The cursor is not one this service made (cursors are signed), or was made for other filters.
             *     - `bad_request` (400): The HTTP request itself is malformed: an invalid URL encoding or request line or header, no Host header (HTTP/1.1) or more than one, more than one Authorization header, or a CONNECT request.
             *     - `invalid_idempotency_key` (400): The Idempotency-Key header is not one structured-field string ("…") or bare token of 1 to 255 visible ASCII characters.
             *     - `unauthorized` (401): The bearer API key is missing, unknown, expired or revoked.
             *     - `insufficient_scope` (403): The API key is valid but lacks the scope this operation needs; WWW-Authenticate names it.
             *     - `pet_not_found` (404): No pet has this id.
             *     - `order_not_found` (404): No order has this id.
             *     - `webhook_endpoint_not_found` (404): No webhook endpoint has this id.
             *     - `webhook_delivery_not_found` (404): The webhook endpoint has no delivery with this id.
             *     - `api_key_not_found` (404): No API key has this id.
             *     - `route_not_found` (404): No operation lives at this path.
             *     - `method_not_allowed` (405): The path exists but not with this method; see the Allow header.
             *     - `request_timeout` (408): The request was not received completely in time.
             *     - `pet_not_available` (409): The pet cannot be ordered: it is not available (an open order holds it, or it is sold). The message names its status.
             *     - `order_state_conflict` (409): The order is not in a status this action applies to (approve a placed order, deliver an approved one, cancel an open one). The message names its status.
             *     - `pet_has_open_order` (409): The pet has an open (placed or approved) order: its status follows the order and it cannot be removed until the order is delivered or cancelled.
             *     - `pet_sold_by_order` (409): The pet was sold by a delivered order: its status stays sold.
             *     - `webhook_endpoint_disabled` (409): The webhook endpoint is disabled: nothing is sent to it. Enable it first (PATCH `status` `enabled`), then test it or retry the delivery.
             *     - `webhook_delivery_in_flight` (409): An attempt of this delivery is being sent now (its dispatcher holds it); retry it by hand after that attempt ends.
             *     - `webhook_endpoint_limit` (409): The store has 100 webhook endpoints, the most it may have: remove one before adding another.
             *     - `webhook_secret_superseded` (409): A retry with an Idempotency-Key whose first answer carried a webhook signing secret that is no longer the endpoint's (rotated since, or the endpoint removed): the secret is not answered again. Read the endpoint; rotate its secret for a new one.
             *     - `api_key_already_issued` (409): A retry with an Idempotency-Key whose first answer made an API key: the key was shown then and is not answered again (the store keeps only its SHA-256). List the keys to find it, or revoke it and make another.
             *     - `idempotency_key_in_use` (409): A request with this Idempotency-Key is still running; retry after the Retry-After delay to get its answer.
             *     - `cursor_expired` (410): Events after the cursor's position were purged (events are kept EVENT_RETENTION_DAYS, 30 by default): the reader missed some. An old cursor that missed nothing stays valid.
             *     - `operation_removed` (410): The operation was deprecated and has passed its sunset date.
             *     - `precondition_failed` (412): If-Match does not name the current ETag: the pet was changed since that ETag was read. Read it again, then retry.
             *     - `idempotency_key_reused` (422): This Idempotency-Key was already used by this API key for another request (another operation, path or body) while the key is kept (IDEMPOTENCY_KEY_TTL_HOURS, 24 by default); use a new key for a new request.
             *     - `expectation_failed` (417): The Expect header asks for something other than 100-continue, the one expectation the service meets.
             *     - `payload_too_large` (413): The body is larger than the configured limit.
             *     - `unsupported_media_type` (415): The body is not application/json in UTF-8.
             *     - `headers_too_large` (431): The request headers are larger than the server accepts.
             *     - `rate_limited` (429): Too many requests with this key this minute, or too many failed key verifications from this address (then only for tokens no key could match); retry after the Retry-After delay.
             *     - `too_many_streams` (429): This key already holds as many live streams of the events feed as one instance allows (EVENT_STREAMS_PER_KEY, 5 by default); close one, or retry after the Retry-After delay.
             *     - `internal_error` (500): An unexpected failure; the request id in X-Request-Id finds it in the log.
             *     - `service_unavailable` (503): The database cannot be reached, is locked, or did not answer in time, or a change kept colliding with concurrent ones, or (a webhook URL) too many URL checks are running on this instance; retry after the Retry-After delay. On a write, the write may or may not have happened.
             * @enum {string}
             */
            code: "validation_failed" | "malformed_json" | "invalid_cursor" | "bad_request" | "invalid_idempotency_key" | "unauthorized" | "insufficient_scope" | "pet_not_found" | "order_not_found" | "webhook_endpoint_not_found" | "webhook_delivery_not_found" | "api_key_not_found" | "route_not_found" | "method_not_allowed" | "request_timeout" | "pet_not_available" | "order_state_conflict" | "pet_has_open_order" | "pet_sold_by_order" | "webhook_endpoint_disabled" | "webhook_delivery_in_flight" | "webhook_endpoint_limit" | "webhook_secret_superseded" | "api_key_already_issued" | "idempotency_key_in_use" | "cursor_expired" | "operation_removed" | "precondition_failed" | "idempotency_key_reused" | "expectation_failed" | "payload_too_large" | "unsupported_media_type" | "headers_too_large" | "rate_limited" | "too_many_streams" | "internal_error" | "service_unavailable";
            /** @description Human-readable description; it names the offending field when there is one. Wording may change. */
            message: string;
            /** @description The HTTP status code of the response. */
            status: number;
            /** @description The problems found (validation errors): at most 10, each naming its field (names longer than 64 characters are cut, ending in `…`). When there are more, `message` ends with `; and N more`. */
            details?: {
                /** @description Where the problem is, such as `body.categoryId` or `query.limit`. */
                field: string;
                message: string;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /** @description Maximum number of animals returned: a whole number from 1 to 100 written in decimal digits; 20 when omitted. */
                limit?: number;
                status?: components["schemas"]["PetStatus"];
                /**
                 * @description Return only animals of this category: an integer from 1 to 2^53−1 written in decimal digits.
                 * @example 3
                 */
                categoryId?: number;
                /**
                 * @description Return only animals whose name starts with this text, ignoring case and compatibility forms: both sides are compared after Unicode NFKC and Unicode 17.0.0 full case folding, the same whatever the language (`ñan` and `ÑAN` find `Ñandú`, `rex` finds `Ｒｅｘ`; `ẞ`, `ß`, `SS` and `ss` are one, so `STRASSE` finds `Straße` and `ß` finds `ẞtrasse`). Accents and white space count (`nan` does not find `Ñandú`; ` Rex` does not find `Rex`); `İ` folds to `i` with a combining dot above, so `izmir` does not find `İzmir`, and the dotless `ı` is not `i`. 1 to 200 characters.
                 * @example Re
                 */
                name?: string;
                /** @description Return only the animals with these ids: repeat the parameter (`id=7&id=9`), at most 100 times; each an integer from 1 to 2^53−1 written in decimal digits. Ids no animal has are left out of the answer (no error); an id given twice counts once. This replaces the deprecated `GET /v1/pets/{petId}`: `GET /v1/pets?id=42` answers `[]` or a one-animal array. */
                id?: number[];
                /** @description Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service. Use it with the same filters (`status`, `categoryId`, `name`, `id`) it was made for; `limit` may change between pages. A cursor that was altered, made by anyone else, or made for other filters answers 400 `invalid_cursor`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of animals. */
            200: {
                headers: {
                    /** @description `<…>; rel="next"` when more animals follow. */
                    Link?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pets"];
                };
            };
            /** @description A query parameter is invalid, or the cursor is. Codes: `validation_failed`, `invalid_cursor`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description The animal was added. */
            201: {
                headers: {
                    /** @description The path of the new animal, `/v1/pets/{id}`. */
                    Location?: string;
                    /** @description Strong entity tag of this state of the animal, `"<id>-<version>"` (the version grows by one at each change). Send it back in `If-Match` to change or remove the animal only if nobody changed it since. */
                    ETag?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description The body is not valid JSON, or a field is missing or invalid. Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still running. Codes: `idempotency_key_in_use`. */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the animal.
                 * @example 42
                 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The animal. */
            200: {
                headers: {
                    /** @description Strong entity tag of this state of the animal, `"<id>-<version>"` (the version grows by one at each change). Send it back in `If-Match` to change or remove the animal only if nobody changed it since. */
                    ETag?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description The petId is not an integer from 1 to 2^53−1, or a query parameter was sent. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No animal has this id. Codes: `pet_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation has passed its sunset date. Codes: `operation_removed`. */
            410: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `@1795564800`: deprecated since 2026-11-25 (RFC 9745). */
                    Deprecation?: string;
                    /** @description `Thu, 05 Dec 2030 00:00:00 GMT`: removed from then on (RFC 8594). */
                    Sunset?: string;
                    /** @description `</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"` */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only the state you read: the `ETag` of the animal as you last received it (quotes included), or a comma-separated list of them, or `*`. When the animal has changed since, the answer is 412 `precondition_failed` and nothing changes. Weak tags (`W/"…"`) never match. Without `If-Match` the request applies to whatever the animal is now. A malformed value, or more than 100 tags, is 400. */
                "If-Match"?: string;
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the animal.
                 * @example 40
                 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The animal was removed. No body. */
            204: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The petId or If-Match is invalid. Codes: `validation_failed`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No animal has this id (any more). Codes: `pet_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The animal has an open order: it was not removed. Codes: `pet_has_open_order`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match was given and the animal has changed since: it was not removed. Codes: `precondition_failed`. */
            412: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only the state you read: the `ETag` of the animal as you last received it (quotes included), or a comma-separated list of them, or `*`. When the animal has changed since, the answer is 412 `precondition_failed` and nothing changes. Weak tags (`W/"…"`) never match. Without `If-Match` the request applies to whatever the animal is now. A malformed value, or more than 100 tags, is 400. */
                "If-Match"?: string;
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the animal.
                 * @example 41
                 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["PetPatch"];
                "application/json": components["schemas"]["PetPatch"];
            };
        };
        responses: {
            /** @description The animal as changed. */
            200: {
                headers: {
                    /** @description Strong entity tag of this state of the animal, `"<id>-<version>"` (the version grows by one at each change). Send it back in `If-Match` to change or remove the animal only if nobody changed it since. */
                    ETag?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description The petId, If-Match or the body is invalid, or the body is not valid JSON. Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No animal has this id. Codes: `pet_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The patch changes the status of an animal the store's orders hold: nothing was changed. Codes: `pet_has_open_order`, `pet_sold_by_order`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match was given and the animal has changed since: nothing was changed. Codes: `precondition_failed`. */
            412: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is neither `application/merge-patch+json` nor `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query?: {
                /** @description Maximum number of orders returned: a whole number from 1 to 100 written in decimal digits; 20 when omitted. */
                limit?: number;
                status?: components["schemas"]["OrderStatus"];
                /**
                 * @description Return only orders for this animal: an integer from 1 to 2^53−1 written in decimal digits.
                 * @example 42
                 */
                petId?: number;
                /** @description Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service. Use it with the same `status` and `petId` it was made for; `limit` may change between pages. A cursor that was altered, made by anyone else, made for other filters or for the animals listing answers 400 `invalid_cursor`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders. */
            200: {
                headers: {
                    /** @description `<…>; rel="next"` when more orders follow. */
                    Link?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Orders"];
                };
            };
            /** @description A query parameter is invalid, or the cursor is. Codes: `validation_failed`, `invalid_cursor`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    placeOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewOrder"];
            };
        };
        responses: {
            /** @description The order was placed; the animal is now `pending`. */
            201: {
                headers: {
                    /** @description The path of the new order, `/v1/store/orders/{id}`. */
                    Location?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description The body is not valid JSON, or `petId` is missing or invalid. Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No animal has this id. Codes: `pet_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The animal is not `available`; the message names its status. Codes: `pet_not_available`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 7
                 */
                orderId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description The orderId is not an integer from 1 to 2^53−1, or a query parameter was sent. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No order has this id. Codes: `order_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 7
                 */
                orderId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order as it now is. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description The orderId is invalid, a query parameter or a body was sent. Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No order has this id. Codes: `order_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The order is not placed; the message names its status. Nothing was changed. Codes: `order_state_conflict`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body was sent that is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deliverOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 8
                 */
                orderId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order as it now is. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description The orderId is invalid, a query parameter or a body was sent. Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No order has this id. Codes: `order_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The order is not approved; the message names its status. Nothing was changed. Codes: `order_state_conflict`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body was sent that is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 9
                 */
                orderId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order as it now is. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description The orderId is invalid, a query parameter or a body was sent. Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No order has this id. Codes: `order_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The order is not placed or approved; the message names its status. Nothing was changed. Codes: `order_state_conflict`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body was sent that is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Maximum number of events returned: a whole number from 1 to 100 written in decimal digits; 20 when omitted. */
                limit?: number;
                /** @description Return only events of these types: repeat the parameter (`type=pet.*&type=order.delivered`), each an exact type or a group (`pet.*`, `order.*`). Without it, every type the key may read. Asking only for types the key may not read answers 403 `insufficient_scope`; types it may not read among others are left out. */
                type?: ("pet.created" | "pet.updated" | "pet.deleted" | "order.placed" | "order.approved" | "order.delivered" | "order.cancelled" | "pet.*" | "order.*")[];
                /** @description `latest`: answer no event, only the `Link` to the events that come after the newest one, to follow the store from now on. Not with `cursor`. */
                start?: "latest";
                /** @description Long poll: when no event would be answered, hold the answer until one is there or this many seconds (0 to 30, decimal digits) have passed, then answer as usual (with its `Link`). 0, the default, answers at once. With `start=latest`: the first events after the newest one. A key's long polls waiting on one instance are capped at `EVENT_STREAMS_PER_KEY`: the next is answered at once. A stopping instance answers its waiting long polls at once. */
                wait?: number;
                /** @description Opaque position from the `Link: <…>; rel="next"` header of a previous answer, signed by the service. Use it with the same `type` filter it was made for; `limit` may change. Without it the feed starts at the oldest event kept. A cursor that was altered, made by anyone else or for other filters answers 400 `invalid_cursor`; one whose next events were purged (kept `EVENT_RETENTION_DAYS`), 410 `cursor_expired`. */
                cursor?: string;
            };
            header?: {
                /** @description Streams only (`Accept: text/event-stream`): the `id:` of the last frame received, to resume after it. It wins over `cursor` and `start`, and is checked as a cursor is (made for the same `type` filter; 400 `invalid_cursor` otherwise, 410 `cursor_expired` when its next events were purged). */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events after the position asked for, oldest first (none at the end of the feed, or with `start=latest`); with `Accept: text/event-stream`, the live stream. */
            200: {
                headers: {
                    /** @description Always on `application/json` answers: `<…?cursor=…>; rel="next"`, the position after the last event returned (or, when none was, the same position; past the events of other types read, with a filter), with the same `type` filter and `limit`. */
                    Link?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Events"];
                    "text/event-stream": string;
                };
            };
            /** @description A query parameter is invalid, `start` and `cursor` were both sent, or the cursor is invalid. Codes: `validation_failed`, `invalid_cursor`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Events after the cursor were purged (kept `EVENT_RETENTION_DAYS`): the reader missed some. Start again without a cursor or with `start=latest`, and catch up from the listings. An old cursor that missed nothing stays valid. Codes: `cursor_expired`. */
            410: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address; or, for a stream, the key already holds `EVENT_STREAMS_PER_KEY` streams on this instance. Codes: `rate_limited`, `too_many_streams`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Maximum number of endpoints returned: a whole number from 1 to 100 written in decimal digits; 20 when omitted. */
                limit?: number;
                /** @description Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service; `limit` may change between pages. A cursor that was altered, made by anyone else or for another listing answers 400 `invalid_cursor`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints. */
            200: {
                headers: {
                    /** @description `<…>; rel="next"` when more endpoints follow. */
                    Link?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoints"];
                };
            };
            /** @description A query parameter is invalid, or the cursor is. Codes: `validation_failed`, `invalid_cursor`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewWebhookEndpoint"];
            };
        };
        responses: {
            /** @description The endpoint was added; its secret is in this answer only. */
            201: {
                headers: {
                    /** @description The path of the new endpoint, `/v1/webhook-endpoints/{id}`. */
                    Location?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description The body is not valid JSON, a field is missing or invalid, or the URL is refused (the message says why). Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks `webhooks:write`, or may read none of the event types `events` names (`pets:read` for `pet.*`, `orders:read` for `order.*`). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The store has as many endpoints as it may have; or a retry with the `Idempotency-Key` of an earlier request whose answer carried a secret that is no longer the endpoint's (rotated since, or the endpoint removed): that secret is not answered again. Codes: `webhook_endpoint_limit`, `webhook_secret_superseded`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Or the URL could not be checked now: 2 DNS lookups of URL checks of this API key are already running on this instance (nothing was written; retry after `Retry-After`). The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the webhook endpoint.
                 * @example 1
                 */
                endpointId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The endpointId is not an integer from 1 to 2^53−1, or a query parameter was sent. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook endpoint has this id. Codes: `webhook_endpoint_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the webhook endpoint.
                 * @example 2
                 */
                endpointId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint was removed. No body. */
            204: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpointId is not an integer from 1 to 2^53−1, or a query parameter was sent. Codes: `validation_failed`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook endpoint has this id. Codes: `webhook_endpoint_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still running. Codes: `idempotency_key_in_use`. */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the webhook endpoint.
                 * @example 1
                 */
                endpointId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["WebhookEndpointPatch"];
                "application/json": components["schemas"]["WebhookEndpointPatch"];
            };
        };
        responses: {
            /** @description The endpoint as changed; with its new `secret` (this answer only) when it widened `allowedTypes`. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdatedWebhookEndpoint"];
                };
            };
            /** @description The endpointId or the body is invalid, the body is not valid JSON, or the URL is refused (the message says why). Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks `webhooks:write`, or may read none of the event types `events` names (`pets:read` for `pet.*`, `orders:read` for `order.*`). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook endpoint has this id. Codes: `webhook_endpoint_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A retry with the `Idempotency-Key` of an earlier request whose answer carried a secret that is no longer the endpoint's (rotated since, or the endpoint removed): that secret is not answered again. Codes: `webhook_secret_superseded`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is neither `application/merge-patch+json` nor `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Or the URL could not be checked now: 2 DNS lookups of URL checks of this API key are already running on this instance (nothing was written; retry after `Retry-After`). The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the webhook endpoint.
                 * @example 1
                 */
                endpointId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint with its new secret, in this answer only. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description The endpointId is invalid, or a query parameter or a body was sent. Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks `webhooks:write`, or may not read every event type the endpoint receives (its `allowedTypes`: `pets:read` for pet events, `orders:read` for order events): the secret would let it sign such events itself. Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook endpoint has this id. Codes: `webhook_endpoint_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A retry with the `Idempotency-Key` of an earlier request whose answer carried a secret that is no longer the endpoint's (rotated since, or the endpoint removed): that secret is not answered again. Codes: `webhook_secret_superseded`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body was sent that is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Maximum number of deliveries returned: a whole number from 1 to 100 written in decimal digits; 20 when omitted. */
                limit?: number;
                /** @description Return only the deliveries in this state: `pending`, `succeeded` or `failed`. */
                outcome?: "pending" | "succeeded" | "failed";
                /** @description Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service, bound to the endpoint and the `outcome` filter. */
                cursor?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Identifier of the webhook endpoint.
                 * @example 1
                 */
                endpointId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries, newest first. */
            200: {
                headers: {
                    /** @description `<…>; rel="next"` when more deliveries follow. */
                    Link?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"][];
                };
            };
            /** @description A parameter is invalid, or the cursor is. Codes: `validation_failed`, `invalid_cursor`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook endpoint has this id. Codes: `webhook_endpoint_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the webhook endpoint.
                 * @example 1
                 */
                endpointId: number;
                /**
                 * @description Identifier of the delivery.
                 * @example 1
                 */
                deliveryId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending and due now. */
            202: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description A parameter is invalid, or a body other than `{}` was sent. Codes: `validation_failed`, `malformed_json`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks `webhooks:write`, or the endpoint no longer receives the delivery's event type (its `allowedTypes`), which the key may read (`pets:read` for a pet event, `orders:read` for an order event). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook endpoint has this id, or it has no delivery with this id of an event type the key may read. Codes: `webhook_endpoint_not_found`, `webhook_delivery_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The endpoint is disabled (`webhook_endpoint_disabled`): enable it first with `PATCH` `{"status": "enabled"}`. Or an attempt of this delivery is being sent now (`webhook_delivery_in_flight`): retry after it ends. Codes: `webhook_endpoint_disabled`, `webhook_delivery_in_flight`. */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body was sent that is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the webhook endpoint.
                 * @example 1
                 */
                endpointId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test delivery, pending and due now. */
            202: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description A parameter is invalid, or a body other than `{}` was sent. Codes: `validation_failed`, `malformed_json`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook endpoint has this id. Codes: `webhook_endpoint_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The endpoint is disabled (`webhook_endpoint_disabled`): enable it first with `PATCH` `{"status": "enabled"}`. Codes: `webhook_endpoint_disabled`. */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A body was sent that is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Maximum number of keys returned: a whole number from 1 to 100 written in decimal digits; 20 when omitted. */
                limit?: number;
                /** @description Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service; `limit` may change between pages. A cursor that was altered, made by anyone else or for another listing answers 400 `invalid_cursor`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys. */
            200: {
                headers: {
                    /** @description `<…>; rel="next"` when more keys follow. */
                    Link?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeys"];
                };
            };
            /** @description A query parameter is invalid, or the cursor is. Codes: `validation_failed`, `invalid_cursor`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewApiKey"];
            };
        };
        responses: {
            /** @description The key was made; the key itself is in this answer only. */
            201: {
                headers: {
                    /** @description The path of the new key, `/v1/api-keys/{id}`. */
                    Location?: string;
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description The body is not valid JSON, or a field is missing or invalid (`expiresAt` in the past, later than 9999-12-31T23:59:59.999Z in UTC, or later than the expiry of the key making the request). Codes: `validation_failed`, `malformed_json`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks `keys:manage`, or `scopes` names a scope the key lacks; `WWW-Authenticate` names the scopes it lacks. Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A retry with the `Idempotency-Key` of an earlier request, which made a key: that key is not shown again. Codes: `api_key_already_issued`. Or: A request with this Idempotency-Key is still running. (`idempotency_key_in_use`, 409). */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the limit. Codes: `payload_too_large`. */
            413: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not `application/json` in UTF-8. Codes: `unsupported_media_type`. */
            415: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCurrentApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key that made this request. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrentApiKey"];
                };
            };
            /** @description A query parameter was sent. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the API key, as `listApiKeys` shows it.
                 * @example 1
                 */
                keyId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key. */
            200: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description The keyId is not an integer from 1 to 2^53−1, or a query parameter was sent. Codes: `validation_failed`. */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key lacks the scope this operation needs (see its security requirement). Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key has this id. Codes: `api_key_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (`"…"`) or a bare token, of 1 to 255 visible ASCII characters. A retry with the same key and the same request gets the first answer again with `Idempotent-Replayed: true` and changes nothing; see the operation's description. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Identifier of the API key, as `listApiKeys` shows it.
                 * @example 2
                 */
                keyId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is revoked (now, or it was already). No body. */
            204: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The keyId is not an integer from 1 to 2^53−1, or a query parameter was sent. Codes: `validation_failed`. Or: The Idempotency-Key header is malformed. (`invalid_idempotency_key`, 400). */
            400: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, expired or revoked. Codes: `unauthorized`. */
            401: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks `keys:manage`, or the key to revoke holds a scope it lacks; `WWW-Authenticate` names the scopes it lacks. Codes: `insufficient_scope`. */
            403: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1). */
                    "WWW-Authenticate"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key has this id. Codes: `api_key_not_found`. */
            404: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still running. Codes: `idempotency_key_in_use`. */
            409: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was used for another request. Codes: `idempotency_key_reused`. */
            422: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests this minute with this key, or too many failed key verifications from this address. Codes: `rate_limited`. */
            429: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it. Codes: `internal_error`. */
            500: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice. Codes: `service_unavailable`. */
            503: {
                headers: {
                    /** @description The request id: the one the client sent when it was sane, else a new UUID. Also in the log line. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    /** @description The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: `"per-key";q=1200;w=60` (q requests per w seconds with this key). Absent when rate limits are off. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The message's id: `evt_<event id>` for an event, `msg_test_…` for a test; the same on every attempt, so a receiver can drop a message it already handled.
                 * @example evt_1234
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was sent, in whole seconds since the Unix epoch. Refuse a message whose timestamp is more than about 5 minutes from your clock (replays).
                 * @example 1764235800
                 */
                "webhook-timestamp": string;
                /**
                 * @description One or more space-separated signatures `v1,<base64>`: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`. During the 24 hours after a secret rotation there are two (the new secret's first); accept the message when any one matches.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"];
            };
        };
        responses: {
            /** @description Any 2xx answered within 15 s: the message was received. Its body is read and ignored, at most 64 KiB and within those 15 s (past either the connection is closed; the status still decides). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The receiver is gone for good: the endpoint is disabled and nothing more is sent to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none: the message is sent again on the retry schedule (after `Retry-After` on 429 or 503). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveTestMessage: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The message's id: `evt_<event id>` for an event, `msg_test_…` for a test; the same on every attempt, so a receiver can drop a message it already handled.
                 * @example evt_1234
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was sent, in whole seconds since the Unix epoch. Refuse a message whose timestamp is more than about 5 minutes from your clock (replays).
                 * @example 1764235800
                 */
                "webhook-timestamp": string;
                /**
                 * @description One or more space-separated signatures `v1,<base64>`: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`. During the 24 hours after a secret rotation there are two (the new secret's first); accept the message when any one matches.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx answered within 15 s: the message was received. Its body is read and ignored, at most 64 KiB and within those 15 s (past either the connection is closed; the status still decides). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The receiver is gone for good: the endpoint is disabled and nothing more is sent to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none: the message is sent again on the retry schedule (after `Retry-After` on 429 or 503). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
