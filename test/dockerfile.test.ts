/** The Dockerfile installs what the repository's manifests say, the way the README's install does. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from './helpers/spawn-service.js';

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces?: string[] };

/** The files the build stage copies before its `npm ci`: the layer the dependencies come from. */
function copiedBeforeInstall(): string[] {
  const build = dockerfile.slice(0, dockerfile.indexOf('RUN npm ci'));
  return [...build.matchAll(/^COPY (?!--)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
}

it('Dockerfile > before npm ci > copies the manifests, the lockfile and .npmrc (install scripts stay off)', () => {
  assert.ok(dockerfile.includes('RUN npm ci'), 'the build stage installs with npm ci');
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    assert.ok(copiedBeforeInstall().includes(file), `${file} is copied before npm ci`);
  }
});

it('Dockerfile > a workspace of the repository > has its package.json copied before npm ci', () => {
  for (const workspace of pkg.workspaces ?? []) {
    assert.ok(copiedBeforeInstall().includes(`${workspace}/package.json`), `${workspace}/package.json is copied`);
  }
});

it('.npmrc > install scripts > are off (no node-gyp, so no Python, make or compiler to install)', () => {
  const npmrc = readFileSync(join(REPO_ROOT, '.npmrc'), 'utf8');
  assert.match(npmrc, /^ignore-scripts=true$/m);
});
