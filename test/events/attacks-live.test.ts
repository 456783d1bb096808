/**
 * The hostile review of the feed's long polls and live stream (issue 17), over real ports on both
 * databases: each test is an attack that once worked, kept so it keeps failing.
 */
import assert from 'node:assert/strict';
import { type ClientRequest, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { sampleValue } from '../helpers/metrics.js';
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

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `Attack (issue 17): the live feed on ${dialect}`, {}, () => {
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

    it('Attack (issue 17): a client that hangs up before its stream starts > its place is given back, not held until an event comes', async () => {
      await hangUpDuringRead('events', '/v1/events', { accept: 'text/event-stream' });
      await waitUntil(async () => (await gauge('animal_store_event_streams_open')) === 0, { deadlineMs: 5_000, what: 'a stream nobody reads holds its place' });
    });
  });
}
