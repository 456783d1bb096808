/** The service runs with the same Node flags wherever it is started: npm start, the Dockerfile, the tests and the bench. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT, SERVICE_NODE_FLAGS } from './helpers/spawn-service.js';

it('npm start and the Dockerfile run node with the flags the tests and the bench use', () => {
  const start = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts.start as string;
  // The build first (only what changed): .npmrc turns install scripts off, and with them the `prestart` hook.
  assert.equal(start, `node scripts/build-if-changed.js && node ${SERVICE_NODE_FLAGS.join(' ')} dist/cli.js serve`);
  const entrypoint = /^ENTRYPOINT (.*)$/m.exec(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'))?.[1];
  assert.deepEqual(JSON.parse(entrypoint ?? 'null'), ['node', ...SERVICE_NODE_FLAGS, 'dist/cli.js']);
});
