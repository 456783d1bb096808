/**
 * Hostile review, on both databases: a key that may not read order events must not
 * hold a secret that signs them. A pets-only key creates an endpoint naming `order.*` too (it
 * receives pet events only) and is answered its secret; a key that reads orders later sets its url,
 * which widens `allowedTypes` to order events. That PATCH replaces the secret at once, without
 * overlap, and answers the new one; the old secret signs nothing more.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { withDeadline } from '../helpers/wait-for.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-endpoint-row.js';

const WAIT_MS = 10_000;

interface Answer {
  id: number;
  allowedTypes: string[];
  secret?: string;
  previousSecretExpiresAt?: string;
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook endpoints widened by a PATCH on ${dialect}`, {}, () => {
    let t: TestApp;
    let petsOnly: { authorization: string };
    const receivers: WebhookReceiver[] = [];
    before(async () => {
      t = await createTestApp(dialect, { env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, hooks: { webhookDispatcher: { pollMs: 20 } } });
      petsOnly = {
        authorization: `Bearer ${(await issueApiKey(t.database.db, { name: 'pets-only', scopes: ['pets:read', 'webhooks:read', 'webhooks:write'] })).key}`,
      };
    });
    afterEach(async () => {
      await t.database.db.deleteFrom('webhookEndpoints').execute();
      for (const receiver of receivers.splice(0)) await receiver.close();
    });
    after(() => t.close());

    const receiver = async () => {
      const started = await startWebhookReceiver();
      receivers.push(started);
      return started;
    };
    const json = (auth: { authorization: string }, extra: Record<string, string> = {}) => ({ ...auth, 'content-type': 'application/json', ...extra });
    const create = (url: string) =>
      t.app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: json(petsOnly), payload: { url, events: ['pet.*', 'order.*'] } });
    const patch = (id: number, body: object, auth = t.auth, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${id}`, headers: json(auth, extra), payload: body });
    /** A test message sent to the endpoint, as its receiver got it. */
    const delivered = async (id: number, hooks: WebhookReceiver) => {
      const count = hooks.received.length + 1;
      assert.equal((await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${id}/test`, headers: t.auth })).statusCode, 202);
      const message = (await withDeadline(hooks.waitFor(count), WAIT_MS, 'the test message'))[count - 1]!;
      return { body: message.body, headers: message.headers as Record<string, string> };
    };

    it('Attack: a PATCH that widens allowedTypes > replaces the secret at once (no overlap) and answers it; the secret the pets-only key holds signs nothing more', async () => {
      const first = await receiver();
      const created = await create(first.url);
      assert.equal(created.statusCode, 201, created.body);
      const { id, secret: known, allowedTypes } = created.json<Answer>();
      assert.deepEqual(allowedTypes, ['pet.created', 'pet.updated', 'pet.deleted']);
      // A rotation by the pets-only key (allowed: it reads all the endpoint receives) leaves two secrets it knows.
      const rotated = await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${id}/rotate-secret`, headers: petsOnly });
      const alsoKnown = rotated.json<Answer>().secret!;

      const second = await receiver();
      const widened = await patch(id, { url: second.url });
      assert.equal(widened.statusCode, 200, widened.body);
      const answer = widened.json<Answer>();
      assert.ok(answer.allowedTypes.includes('order.placed'), widened.body);
      assert.match(answer.secret ?? '', /^whsec_/, 'the widening PATCH answers the new secret');
      assert.notEqual(answer.secret, known);
      assert.notEqual(answer.secret, alsoKnown);
      assert.equal(answer.previousSecretExpiresAt, undefined, 'no previous secret signs beside it');

      const message = await delivered(id, second);
      assert.equal(message.headers['webhook-signature']!.split(' ').length, 1, message.headers['webhook-signature']);
      new Webhook(answer.secret!).verify(message.body, message.headers);
      for (const old of [known!, alsoKnown]) assert.throws(() => new Webhook(old).verify(message.body, message.headers), /No matching signature/);
      // And the pets-only key may not have it either.
      assert.equal((await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${id}/rotate-secret`, headers: petsOnly })).statusCode, 403);
    });

    it('Attack: a PATCH that does not widen allowedTypes > answers no secret and keeps it', async () => {
      const created = await create((await receiver()).url);
      const { id, secret } = created.json<Answer>();
      const secretNow = async () => (await t.database.db.selectFrom('webhookEndpoints').select('secret').where('id', '=', id).executeTakeFirstOrThrow()).secret;
      for (const [body, auth] of [
        [{ description: 'words' }, t.auth],
        [{ status: 'disabled' }, t.auth],
        [{ url: (await receiver()).url }, petsOnly],
        [{ events: ['pet.created'] }, t.auth],
      ] as const) {
        const answer = await patch(id, body, auth);
        assert.equal(answer.statusCode, 200, answer.body);
        assert.equal(answer.json<Answer>().secret, undefined, `${JSON.stringify(body)}: ${answer.body}`);
        assert.equal(await secretNow(), secret);
      }
      // Narrowed to pet.created above: pet.* widens it again (pet types only), so the secret goes.
      const again = await patch(id, { events: ['pet.*'] }, petsOnly);
      assert.ok(again.json<Answer>().secret, again.body);
      assert.notEqual(await secretNow(), secret);
    });

    it('Attack: a widening PATCH retried with its Idempotency-Key > replays the new secret, none kept at rest; refused once the secret is rotated', async () => {
      const { id } = (await create((await receiver()).url)).json<Answer>();
      const key = { 'idempotency-key': '"widen-1"' };
      const widened = await patch(id, { events: ['order.*', 'pet.*'] }, t.auth, key);
      const { secret } = widened.json<Answer>();
      assert.ok(secret, widened.body);
      const kept = (await t.database.db.selectFrom('idempotencyKeys').select('responseBody').execute()).map((row) => row.responseBody ?? '').join('\n');
      assert.ok(!kept.includes(secret.slice('whsec_'.length)), `a secret is stored in idempotency_keys: ${kept}`);
      const replay = await patch(id, { events: ['order.*', 'pet.*'] }, t.auth, key);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, widened.body, 'the first answer, byte for byte');
      assert.equal((await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${id}/rotate-secret`, headers: t.auth })).statusCode, 200);
      assert.equal((await patch(id, { events: ['order.*', 'pet.*'] }, t.auth, key)).statusCode, 409);
      // A PATCH answer without a secret is kept and replayed as it is.
      const plainKey = { 'idempotency-key': '"plain-1"' };
      const plain = await patch(id, { description: 'x' }, t.auth, plainKey);
      assert.equal((await patch(id, { description: 'x' }, t.auth, plainKey)).body, plain.body);
    });
  });
}
