/** /v1/webhook-endpoints: add, read, list, change, remove, rotate; the secret shown once; 404s. */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { nextLinkOf } from '../helpers/pages.js';
import { STUB_DNS, stubLookup } from '../helpers/stub-lookup.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

interface Endpoint {
  id: number;
  url: string;
  description?: string;
  events: string[];
  allowedTypes: string[];
  status: string;
  disabledReason?: string;
  previousSecretExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

const PET_TYPES = ['pet.created', 'pet.updated', 'pet.deleted'];
const DAY_MS = 24 * 3_600_000;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `/v1/webhook-endpoints on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { hooks: { webhookLookup: stubLookup(STUB_DNS) } });
    });
    after(() => t.close());

    const json = { 'content-type': 'application/json' };
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: { ...t.auth, ...(payload === undefined ? {} : json) },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const create = async (body: object = { url: 'https://receiver.example/hooks', events: ['pet.*', 'order.delivered'] }) => {
      const response = await call('POST', '/v1/webhook-endpoints', body);
      assert.equal(response.statusCode, 201, response.body);
      return response;
    };
    const stored = (id: number) => t.database.db.selectFrom('webhookEndpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('POST > answers 201, the endpoint (a type given twice kept once) with its secret and Location; GET, the list and PATCH never show the secret again', async () => {
      const response = await create({
        url: 'https://Receiver.EXAMPLE/hooks?to=shop',
        events: ['pet.*', 'order.delivered', 'pet.*'],
        description: 'Shop front',
      });
      const created = response.json<Endpoint>();
      assert.equal(response.headers.location, `/v1/webhook-endpoints/${created.id}`);
      const { secret, id, createdAt, updatedAt, ...rest } = created;
      assert.deepEqual(rest, {
        url: 'https://receiver.example/hooks?to=shop',
        description: 'Shop front',
        events: ['pet.*', 'order.delivered'],
        allowedTypes: [...PET_TYPES, 'order.delivered'],
        status: 'enabled',
      });
      assert.equal(createdAt, new Date(t.clock.now).toISOString());
      assert.equal(updatedAt, createdAt);
      assert.match(secret!, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
      const bytes = Buffer.from(secret!.slice('whsec_'.length), 'base64');
      assert.ok(bytes.length >= 24 && bytes.length <= 64, `${bytes.length} bytes`);
      assert.equal((await stored(id)).secret, secret);
      assert.equal((await stored(id)).createdByKeyId !== null, true);

      const answers = [
        await call('GET', `/v1/webhook-endpoints/${id}`),
        await call('GET', '/v1/webhook-endpoints?limit=100'),
        await call('PATCH', `/v1/webhook-endpoints/${id}`, { description: 'Shop' }),
      ];
      for (const answer of answers) {
        assert.equal(answer.statusCode, 200, answer.body);
        assert.ok(!answer.body.includes(secret!), 'the secret is shown once');
        assert.ok(!answer.body.includes('"secret"'), 'no secret field');
      }
      assert.deepEqual(answers[0]!.json(), { id, ...rest, createdAt, updatedAt });
    });

    it('GET /v1/webhook-endpoints > pages in id order with a Link; the last page has none', async () => {
      const ids = [(await create()).json<Endpoint>().id, (await create()).json<Endpoint>().id, (await create()).json<Endpoint>().id];
      const seen: number[] = [];
      let next: string | undefined = '/v1/webhook-endpoints?limit=2';
      while (next) {
        const page = await call('GET', next);
        assert.equal(page.statusCode, 200, page.body);
        seen.push(...page.json<Endpoint[]>().map((endpoint) => endpoint.id));
        next = nextLinkOf(page.headers.link);
      }
      assert.deepEqual(
        seen.filter((id) => ids.includes(id)),
        ids,
      );
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => a - b),
      );
      assertErrorBody(await call('GET', '/v1/webhook-endpoints?cursor=abc'), { status: 400, code: 'invalid_cursor' });
    });

    it('PATCH > merge patch: description null removes it, events set allowedTypes again, url normalised; application/merge-patch+json accepted', async () => {
      const { id } = (await create({ url: 'https://receiver.example/a', events: ['pet.created'], description: 'Old' })).json<Endpoint>();
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/v1/webhook-endpoints/${id}`,
        headers: { ...t.auth, 'content-type': 'application/merge-patch+json' },
        payload: { description: null, events: ['order.*'], url: 'https://RECEIVER.example:8443/b' },
      });
      assert.equal(response.statusCode, 200, response.body);
      const changed = response.json<Endpoint>();
      assert.equal(changed.description, undefined);
      assert.deepEqual(changed.events, ['order.*']);
      assert.deepEqual(changed.allowedTypes, ['order.placed', 'order.approved', 'order.delivered', 'order.cancelled']);
      assert.equal(changed.url, 'https://receiver.example:8443/b');
      assert.equal((await stored(id)).description, null);
      for (const field of ['url', 'events', 'status']) {
        assertErrorBody(await call('PATCH', `/v1/webhook-endpoints/${id}`, { [field]: null }), {
          status: 400,
          code: 'validation_failed',
          message: new RegExp(`^body\\.${field} cannot be null`),
        });
      }
      assertErrorBody(await call('PATCH', `/v1/webhook-endpoints/${id}`, {}), { status: 400, code: 'validation_failed' });
    });

    it('PATCH status enabled > a disabled endpoint is enabled again, its disabledReason and failingSince cleared', async () => {
      const { id } = (await create()).json<Endpoint>();
      await t.database.db
        .updateTable('webhookEndpoints')
        .set({ status: 'disabled', disabledReason: 'the receiver answered 410 Gone', failingSince: t.clock.now - DAY_MS })
        .where('id', '=', id)
        .execute();
      const disabled = await call('GET', `/v1/webhook-endpoints/${id}`);
      assert.equal(disabled.json<Endpoint>().disabledReason, 'the receiver answered 410 Gone');
      const enabled = await call('PATCH', `/v1/webhook-endpoints/${id}`, { status: 'enabled' });
      assert.equal(enabled.statusCode, 200, enabled.body);
      assert.equal(enabled.json<Endpoint>().status, 'enabled');
      assert.equal(enabled.json<Endpoint>().disabledReason, undefined);
      const row = await stored(id);
      assert.deepEqual(
        { status: row.status, disabledReason: row.disabledReason, failingSince: row.failingSince },
        { status: 'enabled', disabledReason: null, failingSince: null },
      );
      const off = await call('PATCH', `/v1/webhook-endpoints/${id}`, { status: 'disabled' });
      assert.equal(off.json<Endpoint>().status, 'disabled');
    });

    it('POST …/rotate-secret > a new secret once; the old one is kept as previous for 24 h; a second rotation replaces it', async () => {
      const created = (await create()).json<Endpoint>();
      t.clock.now += 1000;
      const first = await call('POST', `/v1/webhook-endpoints/${created.id}/rotate-secret`);
      assert.equal(first.statusCode, 200, first.body);
      const rotated = first.json<Endpoint>();
      assert.match(rotated.secret!, /^whsec_/);
      assert.notEqual(rotated.secret, created.secret);
      assert.equal(rotated.previousSecretExpiresAt, new Date(t.clock.now + DAY_MS).toISOString());
      let row = await stored(created.id);
      assert.deepEqual([row.secret, row.previousSecret, row.previousSecretExpiresAt], [rotated.secret, created.secret, t.clock.now + DAY_MS]);
      const read = await call('GET', `/v1/webhook-endpoints/${created.id}`);
      assert.ok(!read.body.includes(rotated.secret!) && !read.body.includes(created.secret!));
      assert.equal(read.json<Endpoint>().previousSecretExpiresAt, rotated.previousSecretExpiresAt);

      t.clock.now += 1000;
      const second = (await call('POST', `/v1/webhook-endpoints/${created.id}/rotate-secret`, {})).json<Endpoint>();
      row = await stored(created.id);
      assert.deepEqual([row.secret, row.previousSecret], [second.secret, rotated.secret]);
      t.clock.now += DAY_MS;
      assert.equal((await call('GET', `/v1/webhook-endpoints/${created.id}`)).json<Endpoint>().previousSecretExpiresAt, undefined);
      assertErrorBody(await call('POST', `/v1/webhook-endpoints/${created.id}/rotate-secret`, { secret: 'mine' }), { status: 400, code: 'validation_failed' });
    });

    it('DELETE > 204, then 404; its deliveries and their attempts are gone with it', async () => {
      const { id } = (await create()).json<Endpoint>();
      const other = (await create()).json<Endpoint>().id;
      const delivery = async (endpointId: number) => {
        const row = await t.database.db
          .insertInto('webhookDeliveries')
          .values({
            endpointId,
            messageId: `msg_${endpointId}`,
            eventId: null,
            eventType: 'webhook.test',
            payload: '{}',
            state: 'pending',
            nextAttemptAt: t.clock.now,
            leaseOwner: null,
            leaseUntil: null,
            createdAt: t.clock.now,
            lastAttemptAt: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await t.database.db
          .insertInto('webhookAttempts')
          .values({ deliveryId: row.id, attemptedAt: t.clock.now, durationMs: 5, statusCode: 500, error: null, outcome: 'failed' })
          .execute();
        return row.id;
      };
      const gone = await delivery(id);
      const kept = await delivery(other);
      const response = await call('DELETE', `/v1/webhook-endpoints/${id}`);
      assert.equal(response.statusCode, 204, response.body);
      assert.equal(response.body, '');
      const deliveries = await t.database.db.selectFrom('webhookDeliveries').select('id').where('id', 'in', [gone, kept]).execute();
      assert.deepEqual(
        deliveries.map((row) => row.id),
        [kept],
      );
      const attempts = await t.database.db.selectFrom('webhookAttempts').select('deliveryId').where('deliveryId', 'in', [gone, kept]).execute();
      assert.deepEqual(
        attempts.map((row) => row.deliveryId),
        [kept],
      );
      assertErrorBody(await call('DELETE', `/v1/webhook-endpoints/${id}`), {
        status: 404,
        code: 'webhook_endpoint_not_found',
        message: `no webhook endpoint has id ${id}`,
      });
    });

    it('an id no endpoint has > 404 webhook_endpoint_not_found on GET, PATCH, DELETE and rotate-secret', async () => {
      const unknown = 9_007_199_254_740_991;
      for (const [method, url, body] of [
        ['GET', `/v1/webhook-endpoints/${unknown}`],
        ['PATCH', `/v1/webhook-endpoints/${unknown}`, { status: 'enabled' }],
        ['DELETE', `/v1/webhook-endpoints/${unknown}`],
        ['POST', `/v1/webhook-endpoints/${unknown}/rotate-secret`],
      ] as const) {
        assertErrorBody(await call(method, url, body), { status: 404, code: 'webhook_endpoint_not_found', message: `no webhook endpoint has id ${unknown}` });
      }
    });

    it('an id that is no int64 > 400 validation_failed naming path.endpointId', async () => {
      for (const id of ['abc', '0', '1.5', '9007199254740992', '-1']) {
        assertErrorBody(await call('GET', `/v1/webhook-endpoints/${id}`), { status: 400, code: 'validation_failed', message: /^path\.endpointId / });
      }
    });
  });
}
