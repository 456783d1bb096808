/**
 * Long polls and streams woken by another process's write, over real ports: two instances on one
 * PostgreSQL database (the once-a-second check, no Redis), and `--workers 2` on one SQLite file
 * (the primary relays the workers' commits; the check would do it too). The kernel hands new
 * connections to the workers in turn, so consecutive connections meet different workers; the
 * test waits on the event with a deadline either way, and never on the clock.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { withDeadline } from '../helpers/wait-for.js';
import { openSse } from '../helpers/sse-client.js';
import { SUITE_STUCK_MS } from '../helpers/spawn-service.js';

interface Event {
  type: string;
  data: { id: number };
}

for (const dialect of ALL_DIALECTS) {
  const shape = dialect === 'sqlite' ? '--workers 2 on one SQLite file' : 'two instances on one PostgreSQL database';
  describeOnDialect(dialect, `GET /v1/events, long poll and stream across processes: ${shape}`, { timeout: SUITE_STUCK_MS }, () => {
    let fleet: Fleet;
    before(async () => {
      fleet = await startFleet(dialect === 'sqlite' ? { dialect, instances: 1, workers: 2, keyName: 'live' } : { dialect, instances: 2, keyName: 'live' });
    });
    after(() => fleet?.stop());

    const headers = () => ({ authorization: `Bearer ${fleet.key}`, connection: 'close' });
    const latest = async (i: number) => {
      const response = await fetch(`${fleet.at(i).baseUrl}/v1/events?start=latest`, { headers: headers() });
      assert.equal(response.status, 200);
      return /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')![1]!;
    };
    const createPet = async (i: number, name: string) => {
      const response = await fetch(`${fleet.at(i).baseUrl}/v1/pets`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      assert.equal(response.status, 201, await response.clone().text());
      return ((await response.json()) as { id: number }).id;
    };

    it('a long poll on one process, a pet created on another > the poll answers its event', async () => {
      const from = await latest(0);
      const poll = fetch(`${fleet.at(0).baseUrl}${from}&wait=30`, { headers: headers() });
      // The poll's connection is open before the write's: the write goes to the other process.
      const id = await createPet(1, 'elsewhere');
      const response = await withDeadline(poll, 15_000, 'the long poll was not woken by the other process');
      assert.equal(response.status, 200);
      assert.deepEqual(
        ((await response.json()) as Event[]).map((e) => [e.type, e.data.id]),
        [['pet.created', id]],
      );
    });

    it('a stream on one process, pets created on another > each comes as a frame', async () => {
      const stream = await openSse(fleet.at(0).baseUrl, '/v1/events?start=latest', { authorization: `Bearer ${fleet.key}` });
      try {
        assert.equal(stream.status, 200);
        const ids = [await createPet(1, 'one'), await createPet(1, 'two')];
        const frames = (await stream.framesUntil((f) => f.data !== undefined && (JSON.parse(f.data) as Event).data.id === ids[1], 15_000)).filter(
          (f) => f.data,
        );
        assert.deepEqual(
          frames.map((f) => (JSON.parse(f.data!) as Event).data.id),
          ids,
        );
      } finally {
        stream.close();
      }
    });
  });
}
