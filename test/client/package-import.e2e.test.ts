/**
 * The built package as users import it: plain JavaScript (an .mjs file run by node) importing
 * `animal-store/client` through the package's exports map, and the types the map points at.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/spawn-service.js';

const run = promisify(execFile);

describe('package exports', () => {
  it('animal-store/client > imported from plain JavaScript > exposes the client and its error', async () => {
    // Inside the repository, so Node resolves the package by its own name (self-reference) through `exports`.
    const dir = mkdtempSync(join(REPO_ROOT, '.tmp-import-'));
    try {
      const file = join(dir, 'smoke.mjs');
      writeFileSync(
        file,
        [
          "import { createAnimalStoreClient, AnimalStoreError } from 'animal-store/client';",
          "import * as root from 'animal-store';",
          "const client = createAnimalStoreClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });",
          "const error = new AnimalStoreError({ code: 'pet_not_found', status: 404, message: 'm', requestId: 'r' });",
          'console.log(JSON.stringify({ pets: typeof client.pets, raw: typeof client.raw.GET, error: [error.name, error.code, error.status, error.requestId, error instanceof Error], same: root.createAnimalStoreClient === createAnimalStoreClient }));',
        ].join('\n'),
      );
      const { stdout } = await run(process.execPath, [file], { cwd: dir });
      assert.deepEqual(JSON.parse(stdout), { pets: 'function', raw: 'function', error: ['AnimalStoreError', 'pet_not_found', 404, 'r', true], same: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('animal-store/client > the exports map > points at built JavaScript and declarations that exist', async () => {
    const { default: manifest } = await import('../../package.json', { with: { type: 'json' } });
    for (const entry of ['.', './client'] as const) {
      const target = manifest.exports[entry];
      assert.ok(existsSync(join(REPO_ROOT, target.import)), target.import);
      assert.ok(existsSync(join(REPO_ROOT, target.types)), target.types);
    }
  });
});
