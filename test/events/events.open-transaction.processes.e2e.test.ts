/**
 * A transaction held open in the store's own database delays only its own events, seen from
 * real processes: three instances on one PostgreSQL schema, with REDIS_URL set (commits told over
 * Redis) and without (each process looks once a second). A direct connection inserts a pet (its
 * trigger records pet.created) and keeps its transaction open; meanwhile clients create pets
 * through two of the instances, and a long-poll reader and a stream reader on every instance must
 * get every one of those events, in the database's order, while the transaction is still open.
 * The third instance takes no create, so its readers learn of the others' commits as a fleet does
 * (Redis, or the look every second), not from a write of their own process. The
 * transaction is committed only once every reader has every other event, so the test waits on
 * events, never on the clock; its own event must then reach every reader once, after the others.
 *
 * PostgreSQL only: on SQLite an open write transaction makes the other writers wait, and a
 * trigger numbers each event as it is inserted.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { type FeedEvent, type FeedFollower, followFeed, type FeedReaderKind } from '../helpers/feed-follower.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { NO_REDIS, TEST_REDIS_URL, testNamespace } from '../helpers/redis.js';
import { describeOnPostgres } from '../helpers/test-db.js';
import { withDeadline } from '../helpers/wait-for.js';
import { SUITE_STUCK_MS } from '../helpers/spawn-service.js';

const INSTANCES = 3;
/** The instances that take the creates; the others only read. */
const WRITING = 2;
/** Pets each writing instance creates while the transaction is open, one at a time per instance. */
const PETS_PER_INSTANCE = 6;
/** Only bounds a wait that is stuck (a second at most is expected): it fails the test, it measures nothing. */
const STUCK_MS = 30_000;
const HELD_OPEN = 'Held open';

/** A reader of the feed on one instance, keeping the names of the pets whose events it got, in order. */
interface Reader {
  label: string;
  seen: string[];
  follower: FeedFollower;
  /** Resolves once every one of `names` was seen. */
  saw(names: readonly string[]): Promise<void>;
}

async function startReader(fleet: Fleet, instance: number, kind: FeedReaderKind): Promise<Reader> {
  const seen: string[] = [];
  const waiters = new Set<() => void>();
  const onEvents = (events: FeedEvent[]) => {
    for (const event of events) seen.push(event.type === 'pet.created' ? event.data.name! : `${event.type} ${event.data.id}`);
    for (const check of [...waiters]) check();
  };
  const follower = await followFeed({ kind, baseUrl: fleet.instances[instance]!.baseUrl, key: fleet.key, from: 'latest', onEvents });
  const label = `the ${kind} reader on instance ${instance}`;
  return {
    label,
    seen,
    follower,
    saw(names) {
      const arrived = new Promise<void>((resolve) => {
        const check = () => {
          if (!names.every((name) => seen.includes(name))) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
      return withDeadline(
        Promise.race([arrived, follower.failed]),
        STUCK_MS,
        `${label} never got all of ${JSON.stringify(names)}; it got ${JSON.stringify(seen)}`,
      );
    },
  };
}

for (const redis of [true, false] as const) {
  const name = `the events feed with a transaction held open in the same database: ${INSTANCES} instances on one PostgreSQL schema, ${redis ? 'REDIS_URL set' : 'no Redis'}`;
  const body = () => {
    const namespace = testNamespace();
    let fleet: Fleet;
    let direct: pg.Client;
    const readers: Reader[] = [];

    before(async () => {
      const env = { RATE_LIMIT_PER_MINUTE: '10000000', ...(redis ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: namespace.prefix } : {}) };
      fleet = await startFleet({ dialect: 'postgres', instances: INSTANCES, env, keyName: 'open-transaction' });
      direct = new pg.Client({ connectionString: fleet.databaseUrl });
      await direct.connect();
    });
    after(async () => {
      for (const reader of readers) reader.follower.stop();
      await direct?.end();
      await fleet?.stop();
      if (redis) await namespace.removeKeys(TEST_REDIS_URL!);
    });

    const createPet = async (instance: number, petName: string) => {
      const response = await fetch(`${fleet.instances[instance]!.baseUrl}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fleet.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: petName, categoryId: 1 }),
        signal: AbortSignal.timeout(STUCK_MS),
      });
      assert.equal(response.status, 201, await response.clone().text());
    };
    /** The names of the pets whose events are numbered, in the feed's order: what every reader must have seen. */
    const feedOrder = async () => {
      const { rows } = await direct.query<{ data: string }>("select data from events where position is not null and type = 'pet.created' order by position");
      return rows.map((row) => (JSON.parse(row.data) as { name: string }).name);
    };

    it("a transaction held open in the same database > delays only its own events: every reader on every instance, one that takes no create included, gets all the others, in the feed's order, while it is open, and its own once, after them, when it commits", async () => {
      for (let instance = 0; instance < INSTANCES; instance++) {
        for (const kind of ['long-poll', 'stream'] as const) readers.push(await startReader(fleet, instance, kind));
      }

      await direct.query('begin');
      let open = true;
      try {
        await direct.query(`insert into pets (name, name_key, category_id, status, created_at) values ($1, lower($1), 1, 'available', 0)`, [HELD_OPEN]);
        // Its event has the oldest id of all, and stays uncommitted while every instance writes.
        const created = await Promise.all(
          Array.from({ length: WRITING }, async (_, instance) => {
            const names = Array.from({ length: PETS_PER_INSTANCE }, (__, n) => `Pet ${n} of instance ${instance}`);
            for (const petName of names) await createPet(instance, petName);
            return names;
          }),
        );
        const others = created.flat();
        await Promise.all(readers.map((reader) => reader.saw(others)));
        const whileOpen = await feedOrder();
        assert.deepEqual([...whileOpen].sort(), [...others].sort(), 'the feed holds every committed pet and not the one held open');
        for (const reader of readers)
          assert.deepEqual(reader.seen, whileOpen, `${reader.label}: every other event, in the feed's order, while the transaction is open`);

        await direct.query('commit');
        open = false;
        await Promise.all(readers.map((reader) => reader.saw([HELD_OPEN])));
        // A pet created after it: whatever a reader would get twice or out of order comes before this one.
        await createPet(0, 'After the commit');
        await Promise.all(readers.map((reader) => reader.saw(['After the commit'])));
        const expected = [...whileOpen, HELD_OPEN, 'After the commit'];
        assert.deepEqual(await feedOrder(), expected, 'the held-open event is numbered after every event committed before it');
        for (const reader of readers) assert.deepEqual(reader.seen, expected, `${reader.label}: the held-open event once, after the others`);
      } finally {
        if (open) await direct.query('rollback');
      }
    });
  };
  if (redis && NO_REDIS) {
    describeOnPostgres(name, {}, () => {
      it('a transaction held open in the same database > with REDIS_URL set > is not tried', { skip: NO_REDIS }, () => {});
    });
  } else describeOnPostgres(name, { timeout: SUITE_STUCK_MS }, body);
}
