/**
 * The hostile review of the feed's long polls and live stream, over real ports on both
 * databases: each test is an attack that once worked, kept so it keeps failing.
 */
import assert from 'node:assert/strict';
import { type ClientRequest, request } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import {
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import { onCommit } from '../../src/db/commit-listeners.js';
import type { Database } from '../../src/db/database.js';
import { sampleValue } from '../helpers/metrics.js';
import { openSse } from '../helpers/sse-client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';

/** Holds the app's next read of a table, once armed, until the test lets it go. */
class HoldNextRead implements KyselyPlugin {
  #armed: { table: string; reached: () => void; released: Promise<void> } | undefined;
  readonly #reads = new WeakSet<object>();

  /** `reached` resolves once a read of `table` is held; `release` lets it go on. */
  arm(table: string): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    this.#armed = { table, reached, released: new Promise<void>((resolve) => (release = resolve)) };
    return { reached: reachedPromise, release };
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const table = this.#armed?.table;
    if (table && node.kind === 'SelectQueryNode' && JSON.stringify(node.from ?? '').includes(`"name":"${table}"`)) this.#reads.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const armed = this.#armed;
    if (armed && this.#reads.has(queryId)) {
      this.#armed = undefined;
      armed.reached();
      await armed.released;
    }
    return result;
  }
}

/** `count` pets with long names written at once in SQL (their events too, by the triggers): megabytes of feed. */
async function writeManyPets(db: Kysely<Database>, dialect: string, count: number): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into pets (name, category_id, status, created_at) select printf('%0200d', i), 1, 'available', 1 from n`.execute(db);
  } else {
    // Ids given by hand stay below every id the identity hands out next, so a later create cannot collide.
    await sql`insert into pets (id, name, category_id, status, created_at) select i, lpad(i::text, 200, '0'), 1, 'available', 1 from generate_series(1, ${count}) i`.execute(
      db,
    );
  }
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `Attack: the live feed on ${dialect}`, {}, () => {
    let t: TestApp & { port: number };
    const hold = new HoldNextRead();
    before(async () => {
      const app = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '100000' }, wrapDb: (db) => db.withPlugin(hold) });
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      t = Object.assign(app, { port: (app.app.server.address() as AddressInfo).port });
    });
    after(() => t.close());

    const gauge = async (name: string) => sampleValue(await t.app.metrics.render(), name);
    const send = (path: string, headers: Record<string, string>): ClientRequest => {
      const sent = request({ host: '127.0.0.1', port: t.port, path, headers: { ...t.auth, ...headers }, agent: false });
      sent.on('error', () => {});
      sent.end();
      return sent;
    };
    /** The client hangs up while the service reads `table` for it, before it answers anything. */
    const hangUpDuringRead = async (table: string, path: string, headers: Record<string, string>) => {
      const held = hold.arm(table);
      const sent = send(path, headers);
      await withDeadline(held.reached, 10_000, 'the request never read the events');
      sent.destroy();
      await waitUntil(async () => (await new Promise<number>((resolve, reject) => t.app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))))) === 0, {
        deadlineMs: 10_000,
        what: 'the service never saw the client leave',
      });
      held.release();
    };

    it('Attack: a client that hangs up before its stream starts > its place is given back, not held until an event comes', async () => {
      await hangUpDuringRead('events', '/v1/events', { accept: 'text/event-stream' });
      await waitUntil(async () => (await gauge('animal_store_event_streams_open')) === 0, { deadlineMs: 5_000, what: 'a stream nobody reads holds its place' });
    });
    it('Attack: a commit listener that throws > the committed write still answers 201, not a 500 that invites a second one', async () => {
      const stop = onCommit(t.database.db, () => {
        throw new Error('a listener that fails');
      });
      try {
        const created = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: { name: 'Once', categoryId: 1 },
        });
        assert.equal(created.statusCode, 201, created.body);
      } finally {
        stop();
      }
    });
  });

  describeOnDialect(dialect, `Attack: stopping under a live feed on ${dialect}`, {}, () => {
    it('Attack: a stream whose client never reads, megabytes behind > the app still stops at once (the client resumes from its last id)', async () => {
      const t = await createTestApp(dialect);
      let reader: net.Socket | undefined;
      const served: net.Socket[] = [];
      t.app.server.on('connection', (socket: net.Socket) => served.push(socket));
      try {
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        // More than the socket buffers of both ends hold: the stream waits for its reader to drain.
        await writeManyPets(t.database.db, dialect, 20_000);
        reader = net.connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
        reader.on('error', () => {});
        reader.pause();
        reader.write(`GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.authorization}\r\nAccept: text/event-stream\r\n\r\n`);
        await waitUntil(() => served.some((socket) => socket.writableLength > 0), { deadlineMs: 30_000, what: 'the stream never filled the socket buffers' });
        await withDeadline(t.app.close(), 10_000, 'the app waited for a reader that never reads');
        // One access line, as answered: the stop ended the stream, its client did not hang up.
        const lines = t.logs.filter((line) => line.msg === 'request' && line.url === '/v1/events');
        assert.equal(lines.length, 1);
        assert.equal(lines[0]!.statusCode, 200);
        assert.equal(lines[0]!.clientAborted, undefined);
      } finally {
        reader?.destroy();
        await t.app.close();
        await t.database.drop();
      }
    });

    it("a stream whose client stops reading, megabytes behind > is cut once frames waited the stall time, its key's place given back; a client that reads is not cut", async () => {
      const STALL_MS = 3000;
      const t = await createTestApp(dialect, { env: { EVENT_STREAMS_PER_KEY: '1', RATE_LIMIT_PER_MINUTE: '100000' }, hooks: { eventStallMs: STALL_MS } });
      let reader: net.Socket | undefined;
      const served: net.Socket[] = [];
      t.app.server.on('connection', (socket: net.Socket) => served.push(socket));
      try {
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (t.app.server.address() as AddressInfo).port;
        // More than the socket buffers of both ends hold: the stream waits for its reader to drain.
        await writeManyPets(t.database.db, dialect, 20_000);

        // A client that reads takes the whole feed, however long that takes, and is never cut.
        const reading = await openSse(`http://127.0.0.1:${port}`, '/v1/events', t.auth);
        assert.equal(reading.status, 200);
        const frames = await reading.framesUntil(
          (frame) => frame.data !== undefined && (JSON.parse(frame.data) as { data: { id: number } }).data.id === 20_000,
          120_000,
        );
        assert.equal(frames.filter((frame) => frame.data !== undefined).length, 20_000);
        reading.close();
        await waitUntil(async () => (await gaugeOf(t, 'animal_store_event_streams_open')) === 0, {
          deadlineMs: 10_000,
          what: 'the reading stream never closed',
        });
        assert.equal(t.logs.filter((line) => String(line.msg).startsWith('the events stream was cut')).length, 0);

        reader = net.connect(port, '127.0.0.1');
        const readerEnd = new Promise<string>((resolve) => {
          reader!.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          reader!.on('end', () => resolve('end'));
        });
        reader.pause();
        reader.write(`GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.authorization}\r\nAccept: text/event-stream\r\n\r\n`);
        await waitUntil(() => served.some((socket) => socket.writableLength > 0), { deadlineMs: 30_000, what: 'the stream never filled the socket buffers' });
        const cut = await withDeadline(
          t.waitForLog((line) => String(line.msg).startsWith('the events stream was cut')),
          30_000,
          'the stream of a client that stopped reading was never cut',
        );
        assert.equal(cut.level, 30);
        // Its access line says the service ended an answered stream, not that the client hung up.
        const access = await withDeadline(
          t.waitForLog((line) => line.msg === 'request' && line.requestId === cut.requestId),
          10_000,
          'the cut stream has no access line',
        );
        assert.equal(access.statusCode, 200);
        assert.equal(access.clientAborted, undefined);
        await waitUntil(async () => (await gaugeOf(t, 'animal_store_event_streams_open')) === 0, {
          deadlineMs: 10_000,
          what: 'the stalled stream still counts as open',
        });
        assert.ok(
          served.filter((socket) => socket.writableLength > 0).every((socket) => socket.destroyed),
          'the stalled connection was kept',
        );
        // Reset, not closed: the kernel dropped what it still held for the client, which reads no more of it.
        // (Node 22 closes a socket whose write is pending instead of resetting it.)
        reader.resume();
        const ending = await withDeadline(readerEnd, 30_000, 'the client never saw its connection end');
        assert.equal(ending, Number(process.versions.node.split('.')[0]) >= 24 ? 'ECONNRESET' : 'end');
        // One access line: the reset that followed it did not add a clientAborted one.
        assert.equal(t.logs.filter((line) => line.msg === 'request' && line.requestId === cut.requestId).length, 1);
        // The key's one place is free again: a new stream opens instead of 429 too_many_streams.
        const next = await openSse(`http://127.0.0.1:${port}`, '/v1/events?start=latest', t.auth);
        assert.equal(next.status, 200, await (next.status === 200 ? Promise.resolve('') : next.text()));
        next.close();
      } finally {
        reader?.destroy();
        await t.app.close();
        await t.database.drop();
      }
    });
  });
}

async function gaugeOf(t: TestApp, name: string): Promise<number | undefined> {
  return sampleValue(await t.app.metrics.render(), name);
}
