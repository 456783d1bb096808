/**
 * SIGTERM on a real `animal-store serve` while many keep-alive clients keep writing: no request
 * sent on an open connection is reset, every acknowledged create is stored, and the process exits 0.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { after, it } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { runCli, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl, ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const WRITERS = 50;

interface Answer {
  status: number;
  connection: string | undefined;
  id?: number;
}

/** One POST on the writer's own keep-alive agent; rejects with the socket error and whether the socket was reused. */
function createPet(agent: Agent, port: number, key: string, name: string): Promise<Answer> {
  const body = JSON.stringify({ name, categoryId: 1 });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/v1/pets',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            connection: res.headers.connection,
            id: res.statusCode === 201 ? (JSON.parse(text) as { id: number }).id : undefined,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

interface WriterOutcome {
  created: number[];
  closedAnswers: number;
  failures: string[];
}

/** Writes until the service stops listening: a refused connection means the request was never sent. */
async function keepWriting(port: number, key: string, writer: number, onCreated: () => void): Promise<WriterOutcome> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const outcome: WriterOutcome = { created: [], closedAnswers: 0, failures: [] };
  try {
    for (let n = 0; ; n++) {
      try {
        const answer = await createPet(agent, port, key, `writer ${writer} pet ${n}`);
        if (answer.status !== 201) {
          outcome.failures.push(`status ${answer.status}`);
          return outcome;
        }
        outcome.created.push(answer.id!);
        if (answer.connection === 'close') outcome.closedAnswers++;
        onCreated();
      } catch (error) {
        const { code, reusedSocket } = error as NodeJS.ErrnoException & { reusedSocket: boolean };
        if (code !== 'ECONNREFUSED') outcome.failures.push(`${code} on a ${reusedSocket ? 'kept-alive' : 'new'} connection`);
        return outcome;
      }
    }
  } finally {
    agent.destroy();
  }
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `SIGTERM during keep-alive writes on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    after(() => stopAllServices());

    it(`${WRITERS} keep-alive writers > none is reset, every acknowledged create is stored, exit 0`, async () => {
      const place = await createEmptyDatabaseUrl(dialect);
      try {
        const made = await runCli(['keys', 'create', '--name', 'writers'], { DATABASE_URL: place.url });
        assert.equal(made.code, 0, made.stderr);
        const key = made.stdout.trim();
        const service = await spawnService({ databaseUrl: place.url, env: { RATE_LIMIT_PER_MINUTE: '0' } });

        // The signal comes once every writer has had answers on its kept-alive connection (a
        // connection the service never accepted before stopping is refused or reset by the kernel).
        const answered = new Array<number>(WRITERS).fill(0);
        let signalled = false;
        const writing = Array.from({ length: WRITERS }, (_, writer) =>
          keepWriting(service.port, key, writer, () => {
            answered[writer]!++;
            if (!signalled && answered.every((count) => count >= 2)) {
              signalled = true;
              service.process.kill('SIGTERM');
            }
          }),
        );
        const outcomes = await Promise.all(writing);
        const exit = await service.exited;

        assert.ok(signalled, 'the writers never got going');
        assert.deepEqual(
          outcomes.flatMap((o) => o.failures),
          [],
        );
        assert.deepEqual(exit, { code: 0, signal: null }, service.stderr());
        // Requests that arrived during the stop were served, and told to close their connection.
        assert.ok(
          outcomes.some((o) => o.closedAnswers > 0),
          'no answer carried Connection: close',
        );

        const handle = createDb(place.url, { poolMax: 1, statementTimeoutMs: 5000 });
        try {
          const stored = new Set((await handle.db.selectFrom('pets').select('id').execute()).map((row) => row.id));
          const acknowledgedIds = outcomes.flatMap((o) => o.created);
          assert.deepEqual(
            acknowledgedIds.filter((id) => !stored.has(id)),
            [],
          );
          assert.equal(stored.size, acknowledgedIds.length);
        } finally {
          await handle.close();
        }
      } finally {
        await place.remove();
      }
    });
  });
}
