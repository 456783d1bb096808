/**
 * /v1/webhook-endpoints refusing: scopes (and what an endpoint may receive), strict bodies, URLs
 * that point at non-public addresses (stub DNS only: nothing is ever sent), and the cap.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import type { Scope } from '../../src/keys/scopes.js';
import { WEBHOOK_ENDPOINTS_MAX } from '../../src/webhooks/webhook-endpoints.limits.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { STUB_DNS, stubLookup } from '../helpers/stub-lookup.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const GOOD = { url: 'https://receiver.example/hooks', events: ['pet.*'] };

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `/v1/webhook-endpoints refusals on ${dialect}`, {}, () => {
    let t: TestApp;
    const lookup = stubLookup(STUB_DNS);
    before(async () => {
      t = await createTestApp(dialect, { hooks: { webhookLookup: lookup }, env: { WEBHOOK_ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1]' } });
    });
    after(() => t.close());

    const keyWith = async (...scopes: Scope[]) => ({ authorization: `Bearer ${(await issueApiKey(t.database.db, { name: scopes.join('-'), scopes })).key}` });
    const post = (body: unknown, auth = t.auth, url = '/v1/webhook-endpoints') =>
      t.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const refusedUrl = async (url: string, message: RegExp) => {
      const response = await post({ ...GOOD, url });
      assertErrorBody(response, { status: 400, code: 'validation_failed', message });
      assert.deepEqual(response.json<{ details: unknown }>().details, [{ field: 'body.url', message: response.json<{ message: string }>().message }], url);
    };

    it('scopes > webhooks:read lists but may not add (403 naming webhooks:write); a key without webhooks:read may not list', async () => {
      const reader = await keyWith('webhooks:read', 'pets:read');
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/webhook-endpoints', headers: reader })).statusCode, 200);
      const refused = await post(GOOD, reader);
      assertErrorBody(refused, { status: 403, code: 'insufficient_scope', message: /webhooks:write/ });
      assert.match(String(refused.headers['www-authenticate']), /scope="webhooks:write"/);
      const petsOnly = await keyWith('pets:read', 'pets:write');
      assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/webhook-endpoints', headers: petsOnly }), {
        status: 403,
        code: 'insufficient_scope',
        message: /webhooks:read/,
      });
    });

    it('a key reading pets only > asks for pet.* and order.*: the endpoint receives pet types only; order.* alone is 403 naming orders:read', async () => {
      const writer = await keyWith('pets:read', 'webhooks:write', 'webhooks:read');
      const created = await post({ ...GOOD, events: ['pet.*', 'order.*'] }, writer);
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(created.json<{ allowedTypes: string[] }>().allowedTypes, ['pet.created', 'pet.updated', 'pet.deleted']);
      const stored = await t.database.db
        .selectFrom('webhookEndpoints')
        .select('allowedTypes')
        .where('id', '=', created.json<{ id: number }>().id)
        .executeTakeFirstOrThrow();
      assert.equal(stored.allowedTypes, '["pet.created","pet.updated","pet.deleted"]');

      const refused = await post({ ...GOOD, events: ['order.*'] }, writer);
      assertErrorBody(refused, { status: 403, code: 'insufficient_scope', message: /orders:read/ });
      assert.match(String(refused.headers['www-authenticate']), /scope="orders:read"/);
      // The same rule on a change: this key may not point an endpoint receiving orders at itself.
      const full = (await post({ ...GOOD, events: ['order.*'] })).json<{ id: number }>();
      const patch = (body: object) =>
        t.app.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${full.id}`, headers: { ...writer, 'content-type': 'application/json' }, payload: body });
      const redirected = await patch({ url: 'https://receiver.example/mine' });
      assertErrorBody(redirected, { status: 403, code: 'insufficient_scope' });
      assert.match(String(redirected.headers['www-authenticate']), /scope="orders:read"/);
      const described = await patch({ description: 'only words' });
      assert.equal(described.statusCode, 200, described.body);
      assert.deepEqual(described.json<{ allowedTypes: string[] }>().allowedTypes, ['order.placed', 'order.approved', 'order.delivered', 'order.cancelled']);
    });

    it('strict bodies > unknown type, empty or repeated events, an extra field, wrong types, a too long URL or description: 400 naming the field', async () => {
      const cases: [unknown, RegExp][] = [
        [{ ...GOOD, events: ['pet.sold'] }, /^body\.events\.0 must be one of: pet\.created/],
        [{ ...GOOD, events: [] }, /^body\.events must have at least 1 items/],
        [{ ...GOOD, secret: 'whsec_mine' }, /^body\.secret is not a known field/],
        [{ ...GOOD, id: 7 }, /^body\.id must not be sent/],
        [{ ...GOOD, events: 'pet.*' }, /^body\.events must be an array/],
        [{ ...GOOD, url: 42 }, /^body\.url must be a string/],
        [{ ...GOOD, description: null }, /^body\.description must be a string/],
        [{ events: ['pet.*'] }, /^body\.url is required/],
        [{ ...GOOD, url: `https://receiver.example/${'a'.repeat(2048)}` }, /^body\.url must have at most 2048 characters/],
        [{ ...GOOD, description: 'd'.repeat(501) }, /^body\.description must have at most 500 characters/],
      ];
      for (const [body, message] of cases) assertErrorBody(await post(body), { status: 400, code: 'validation_failed', message });
    });

    it('URL rules > not https, credentials, a fragment, not a URL: 400 validation_failed on body.url', async () => {
      await refusedUrl('http://receiver.example/hooks', /^body\.url must use https \(http only for the hosts of WEBHOOK_ALLOWED_HOSTS\)$/);
      await refusedUrl('ftp://receiver.example/hooks', /^body\.url must use https, not ftp:$/);
      await refusedUrl('https://user:pass@receiver.example/hooks', /^body\.url must not hold a user name or password/);
      await refusedUrl('https://user@receiver.example/hooks', /^body\.url must not hold a user name or password/);
      await refusedUrl('https://receiver.example/hooks#part', /^body\.url must not have a fragment/);
      await refusedUrl('receiver.example/hooks', /^body\.url must be an absolute URL/);
    });

    // 127.0.0.1 and ::1 are this suite's allowed hosts: url-policy.test.ts refuses them without.
    it('SSRF > non-public IP literals, IPv4-mapped ones included, are refused without any lookup', async () => {
      const asked = lookup.asked.length;
      for (const url of [
        'https://127.0.0.2/',
        'https://10.0.0.1/',
        'https://169.254.169.254/latest/meta-data',
        'https://[fe80::1]/',
        'https://[fc00::1]/',
        'https://[::ffff:10.0.0.1]/',
        'https://0x7f000002/',
        'https://100.64.0.1/',
        'https://0.0.0.0/',
        'https://224.0.0.1/',
      ]) {
        await refusedUrl(url, /^body\.url must not point at a non-public address: .+ is one \(/);
      }
      assert.equal(lookup.asked.length, asked, 'literals need no lookup');
    });

    it('SSRF > IPv4-compatible IPv6 literals (::/96) are refused as non-public, and host names with an empty label, without any lookup', async () => {
      const asked = lookup.asked.length;
      for (const url of ['https://[::127.0.0.1]/', 'https://[::10.0.0.1]/', 'https://[::169.254.169.254]/latest/meta-data', 'https://[0::7f00:1]/']) {
        await refusedUrl(url, /^body\.url must not point at a non-public address: .+ is one \(ipv4 compatible\)$/);
      }
      for (const url of ['https://localhost../hooks', 'https://receiver..example/hooks'])
        await refusedUrl(url, /^body\.url must not have an empty label in its host name/);
      assert.equal(lookup.asked.length, asked, 'none needs a lookup');
    });

    it('SSRF > a name resolving to any non-public address is refused, without telling the address', async () => {
      for (const name of ['internal.example', 'mixed.example', 'v6-internal.example', 'metadata.example', 'compat.example']) {
        await refusedUrl(
          `https://${name}/hooks`,
          new RegExp(`^body\\.url must not point at a non-public address: ${name.replace('.', '\\.')} resolves to one \\([a-z0-9 ]+\\)$`),
        );
      }
    });

    it('SSRF > a name that does not resolve is accepted; a public literal too', async () => {
      for (const url of ['https://not-yet.example/hooks', 'https://93.184.215.14:8443/hooks', 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/']) {
        const response = await post({ ...GOOD, url });
        assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
      }
    });

    it('WEBHOOK_ALLOWED_HOSTS > listed hosts are accepted over http or https, loopback as they are; others are not', async () => {
      for (const url of ['http://localhost:8080/hooks', 'http://127.0.0.1:9/hooks', 'https://[::1]:8443/', 'http://LOCALHOST./x']) {
        const response = await post({ ...GOOD, url });
        assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
      }
      await refusedUrl('http://127.0.0.2/hooks', /must use https/);
      await refusedUrl('https://127.0.0.2/hooks', /non-public address/);
    });

    it('the cap > past WEBHOOK_ENDPOINTS_MAX endpoints, also when the last ones are asked for at once, 409 webhook_endpoint_limit; after a removal one may be added again', async () => {
      const stored = async () =>
        Number(
          (
            await t.database.db
              .selectFrom('webhookEndpoints')
              .select((eb) => eb.fn.countAll<number | string>().as('count'))
              .executeTakeFirstOrThrow()
          ).count,
        );
      for (let n = await stored(); n < WEBHOOK_ENDPOINTS_MAX - 4; n++) assert.equal((await post(GOOD)).statusCode, 201);
      const racing = await Promise.all(Array.from({ length: 12 }, () => post(GOOD)));
      assert.deepEqual(racing.map((response) => response.statusCode).sort(), [...Array(4).fill(201), ...Array(8).fill(409)]);
      assert.equal(await stored(), WEBHOOK_ENDPOINTS_MAX);
      assertErrorBody(await post(GOOD), {
        status: 409,
        code: 'webhook_endpoint_limit',
        message: `the store has ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints, the most it may have; remove one first`,
      });
      const { id } = await t.database.db.selectFrom('webhookEndpoints').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/webhook-endpoints/${id}`, headers: t.auth })).statusCode, 204);
      assert.equal((await post(GOOD)).statusCode, 201);
    });
  });
}
