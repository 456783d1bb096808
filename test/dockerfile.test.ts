/**
 * The Dockerfile installs what the repository's manifests say, the way the README's install does,
 * and what the container docs and CI's container test say about stopping agrees with the config.
 * (scripts/container-test.sh builds and runs the image; .ci/run runs it where Docker is.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { CONFIG_DEFAULTS } from '../src/config.js';
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

it("container docs and test > the shutdown timeout they quote > is SHUTDOWN_TIMEOUT_MS's default, and docker stop waits longer", () => {
  const seconds = Number(CONFIG_DEFAULTS.SHUTDOWN_TIMEOUT_MS) / 1000;
  const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
  const deploy = read('docs/operations.md');
  assert.ok(deploy.includes(`\`SHUTDOWN_TIMEOUT_MS\` (${seconds} s by default)`), 'docs/operations.md quotes the default');
  assert.ok(dockerfile.includes(`SHUTDOWN_TIMEOUT_MS (${seconds} s by default)`), 'the Dockerfile quotes the default');
  // CI's test gives docker stop exactly the timeout: exit code 0 then means the service ended by itself within it.
  assert.ok(read('scripts/container-test.sh').includes(`"$docker" stop -t ${seconds} `), 'the container test stops with -t the timeout');
  const advised = [...deploy.matchAll(/docker stop -t (\d+)/g), ...dockerfile.matchAll(/docker stop` more \(-t (\d+)/g)];
  assert.ok(advised.length >= 2);
  for (const [, t] of advised) assert.ok(Number(t) > seconds, `docker stop -t ${t} is more than ${seconds} s`);
  const grace = /stop_grace_period: (\d+)s/.exec(read('compose.yaml'))?.[1];
  assert.ok(Number(grace) > seconds, `compose's stop_grace_period ${grace}s is more than ${seconds} s`);
});

it('Dockerfile > the image > serves the console: the build stage runs `npm run build` (service and console) and the image keeps all of dist/', () => {
  const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  assert.match(scripts.build!, /vite build --config console\/vite\.config\.ts/);
  assert.match(dockerfile, /^RUN npm run build /m);
  assert.match(dockerfile, /^COPY --from=build \/app\/dist \.\/dist$/m);
  const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
  assert.ok(!ignored.some((line) => /^\/?console\b/.test(line.trim())), 'console/ reaches the build stage');
});
