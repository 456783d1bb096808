/**
 * docs/operations.md, "Backups": the recipe's commands run as a reader runs them, in order, from
 * a fresh folder, against a service that serves and writes on ./data/store.db meanwhile. Each
 * `animal-store …` line runs with bash, `animal-store` being the built command; the last one,
 * `serve`, runs as the tests start every service (spawnService, on a free port) with the
 * DATABASE_URL the line gives, and must answer /readyz and list the pets with the old key.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, it } from 'node:test';
import { call, createKey, type Pet, unique, uniqueCategory, walk } from '../helpers/cli-e2e.js';
import { childEnv } from '../helpers/child-processes.js';
import { publishedSection } from '../helpers/published-docs.js';
import { CLI_PATH, spawnService, stopAllServices } from '../helpers/spawn-service.js';

const folder = mkdtempSync(join(tmpdir(), 'animal-store-recipe-'));
after(async () => {
  await stopAllServices();
  rmSync(folder, { recursive: true, force: true });
});

/** The command lines of the section's `sh` block, comments left out. */
function recipeLines(): string[] {
  const section = publishedSection('Backups');
  assert.equal(section.file, 'docs/operations.md');
  const block = /```sh\n([\s\S]*?)```/.exec(section.text)?.[1];
  assert.ok(block, 'no sh block under "Backups"');
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}

/** Runs one line of the docs with bash in the reader's folder. */
async function runLine(line: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn('bash', ['-c', `animal-store() { node ${JSON.stringify(CLI_PATH)} "$@"; }\n${line}`], {
    cwd: folder,
    env: childEnv({ DATABASE_URL: undefined }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

it(
  'docs/operations.md "Backups" > every command in order, while the service writes > backs up, restores and serves every pet',
  { timeout: 120_000 },
  async () => {
    const lines = recipeLines();
    assert.equal(lines.length, 3, lines.join('\n'));
    const serveLine = /^DATABASE_URL=sqlite:(\S+) animal-store serve$/.exec(lines.at(-1)!);
    assert.ok(serveLine, `the last line starts the service: ${lines.at(-1)}`);
    const servedUrl = 'sqlite:' + join(folder, 'data/store.db');
    assert.ok(lines[0]!.startsWith('DATABASE_URL=sqlite:./data/store.db animal-store backup '), lines[0]);

    mkdirSync(join(folder, 'data'));
    const key = await createKey(servedUrl);
    const service = await spawnService({ databaseUrl: servedUrl });
    const pets: Pet[] = [];
    for (let n = 0; n < 5; n++) {
      const answer = await call(service, 'POST', '/v1/pets', { key, body: { name: unique('pet'), categoryId: uniqueCategory() } });
      assert.equal(answer.status, 201, answer.text);
      pets.push(answer.body as Pet);
    }
    // Writes go on while the recipe runs.
    let writing = true;
    const writer = (async () => {
      while (writing) assert.equal((await call(service, 'POST', '/v1/pets', { key, body: { name: unique('pet'), categoryId: uniqueCategory() } })).status, 201);
    })();

    try {
      for (const line of lines.slice(0, -1)) {
        const run = await runLine(line);
        assert.equal(run.code, 0, `${line}\n${run.stderr}`);
      }
    } finally {
      // Stopped whatever happened, so no request outlives the test.
      writing = false;
      await writer;
    }
    await service.stop();

    const restored = await spawnService({ databaseUrl: `sqlite:${resolve(folder, serveLine[1]!)}`, args: ['serve'] });
    try {
      assert.equal((await call(restored, 'GET', '/readyz')).status, 200);
      const listed = new Set((await walk(restored, key, '/v1/pets?limit=100')).pets.map((pet) => pet.id));
      assert.deepEqual(
        pets.filter((pet) => !listed.has(pet.id)).map((pet) => pet.id),
        [],
      );
    } finally {
      assert.equal((await restored.stop()).code, 0);
    }
  },
);
