/**
 * `@animal-store/client` as someone who does not build the server gets it: packed by
 * `npm pack -w client` (as its README says), installed from the tarball into an empty project
 * outside the repository, where nothing of the repository's node_modules can be found. The
 * README's example, taken from the README itself so the two cannot drift, must compile with
 * `tsc --strict` against the installed package and run against a real service; the install must
 * bring openapi-fetch and its own dependencies, nothing else (the server's package brought 110).
 * Needs the npm registry, or npm's cache, for openapi-fetch.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT, runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

const run = promisify(execFile);

const CLIENT_DIR = join(REPO_ROOT, 'client');
const CLIENT_README = readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

/** The environment of the npm and node children: the running Node's own npm first, none of the parent npm's settings (they would point at the repository). */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name) && name !== 'NODE_TEST_CONTEXT') env[name] = value;
  env.PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  return { ...env, ...extra };
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, env: childEnv(), maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** The bodies of the README's fenced code blocks whose info string is `lang`. */
function fencedBlocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].filter((match) => match[1] === lang).map((match) => match[2]!);
}

/** The arguments of the README's `npm pack` line (the words after `npm`, before the comment). */
function readmePackCommand(): string[] {
  const lines = fencedBlocks(CLIENT_README, 'sh')
    .flatMap((block) => block.split('\n'))
    .filter((line) => line.startsWith('npm pack '));
  assert.equal(lines.length, 1, 'client/README.md has one npm pack command');
  return lines[0]!.replace(/#.*$/, '').trim().split(/\s+/).slice(1);
}

/**
 * The names of every package a lockfile's `packages` map installs for `start` and, transitively,
 * for its dependencies, resolved as Node does: the nearest `node_modules` up the tree.
 */
function dependencyClosure(lock: Record<string, any>, start: string): Set<string> {
  const names = new Set<string>();
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ;) {
      const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (lock[key]) return key;
      if (!base) return undefined;
      const up = base.lastIndexOf('/node_modules/');
      base = up === -1 ? '' : base.slice(0, up);
    }
  };
  const visit = (key: string) => {
    const entry = lock[key];
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (names.has(name)) return;
    names.add(name);
    const optionalPeers = new Set(
      Object.entries(entry.peerDependenciesMeta ?? {})
        .filter(([, meta]) => (meta as { optional?: boolean }).optional)
        .map(([peer]) => peer),
    );
    const wanted = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((peer) => !optionalPeers.has(peer)),
    ];
    for (const dependency of wanted) {
      const found = resolve(key, dependency);
      assert.ok(found, `${dependency} (needed by ${name}) is not in the lockfile`);
      visit(found);
    }
  };
  visit(start);
  return names;
}

/** The name of every package installed under `nodeModules`, nested copies included, read from the disk. */
function installedPackages(nodeModules: string): string[] {
  const names: string[] = [];
  if (!existsSync(nodeModules)) return names;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((scoped) => join(nodeModules, entry, scoped)) : [join(nodeModules, entry)];
    for (const dir of dirs) {
      names.push(readJson(join(dir, 'package.json')).name as string);
      names.push(...installedPackages(join(dir, 'node_modules')));
    }
  }
  return names;
}

/** What an install of the client may bring: itself, and openapi-fetch with its dependencies as the repository's lockfile resolves them. */
function allowedTree(): string[] {
  return [
    ...new Set(['@animal-store/client', ...dependencyClosure(readJson(join(REPO_ROOT, 'package-lock.json')).packages, 'node_modules/openapi-fetch')]),
  ].sort();
}

describe('@animal-store/client, packed and installed outside the repository', { timeout: SUITE_STUCK_MS }, () => {
  const rootManifest = readJson(join(REPO_ROOT, 'package.json'));
  let packDir: string;
  let project: string;
  let packed: { filename: string; files: { path: string }[] };
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>> | undefined;

  before(async () => {
    packDir = mkdtempSync(join(tmpdir(), 'animal-store-pack-'));
    project = mkdtempSync(join(tmpdir(), 'animal-store-client-user-'));
    // The README's own command, run from the repository's root, writing its tarball elsewhere.
    [packed] = JSON.parse(await npm([...readmePackCommand(), '--json', '--pack-destination', packDir], REPO_ROOT)) as [typeof packed];
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'client-user', private: true, type: 'module' }, null, 2)}\n`);
    await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', join(packDir, packed.filename)], project);
  });
  after(async () => {
    await stopAllServices();
    await place?.remove();
    for (const dir of [packDir, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('npm pack -w client > the tarball > is named as the README says and holds dist/ (JavaScript and types), package.json and the README only', () => {
    assert.ok(relative(REPO_ROOT, project).startsWith('..'), `${project} is outside the repository`);
    assert.equal(packed.filename, `animal-store-client-${rootManifest.version}.tgz`);
    assert.match(
      CLIENT_README,
      new RegExp(`^npm pack .*# .*writes ${packed.filename.replaceAll('.', '\\.')}$`, 'm'),
      'the README names the tarball npm pack writes',
    );
    assert.ok(CLIENT_README.includes(`npm install /path/to/animal-store/${packed.filename}`), 'the README installs that tarball');
    const paths = packed.files.map((file) => file.path).sort();
    for (const path of paths) assert.match(path, /^(package\.json|README\.md|dist\/[a-z-]+\.(js|d\.ts))$/);
    for (const path of ['dist/index.js', 'dist/index.d.ts', 'package.json', 'README.md']) assert.ok(paths.includes(path), `${path} is in the tarball`);
  });

  it('the installed package > its manifest > is @animal-store/client at the repository version, ESM with types, depending on openapi-fetch alone', () => {
    const manifest = readJson(join(project, 'node_modules/@animal-store/client/package.json'));
    assert.deepEqual(
      {
        name: manifest.name,
        version: manifest.version,
        type: manifest.type,
        license: manifest.license,
        engines: manifest.engines,
        dependencies: Object.keys(manifest.dependencies),
        exports: manifest.exports['.'],
      },
      {
        name: '@animal-store/client',
        version: rootManifest.version,
        type: 'module',
        license: rootManifest.license,
        engines: rootManifest.engines,
        dependencies: ['openapi-fetch'],
        exports: { types: './dist/index.d.ts', import: './dist/index.js' },
      },
    );
  });

  it('npm install <tarball> into an empty project > the installed tree > is the client, openapi-fetch and its own dependencies, nothing else', () => {
    assert.deepEqual(installedPackages(join(project, 'node_modules')).sort(), allowedTree());
  });

  it('npm install --install-links <checkout>/client > into an empty project > builds and installs a copy, with openapi-fetch and its own dependencies only', async () => {
    assert.ok(CLIENT_README.includes('`npm install --install-links /path/to/animal-store/client`'), 'the README offers this install');
    const linked = mkdtempSync(join(tmpdir(), 'animal-store-client-linked-'));
    try {
      writeFileSync(join(linked, 'package.json'), `${JSON.stringify({ name: 'client-user', private: true, type: 'module' }, null, 2)}\n`);
      await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--install-links', CLIENT_DIR], linked);
      const installed = join(linked, 'node_modules/@animal-store/client');
      assert.equal(lstatSync(installed).isSymbolicLink(), false, 'a copy, not a link to the checkout');
      assert.ok(existsSync(join(installed, 'dist/index.js')) && existsSync(join(installed, 'dist/index.d.ts')), 'built: dist/ holds JavaScript and types');
      assert.deepEqual(installedPackages(join(linked, 'node_modules')).sort(), allowedTree());
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });

  describe('the README examples', () => {
    // The first is the walk-through run below; the others (keys, which would change the store; following the feed and a
    // webhook receiver, which run for ever) are only compiled.
    const examples = fencedBlocks(CLIENT_README, 'ts');
    const files = examples.map((_, i) => (i === 0 ? 'example.ts' : `example-${i + 1}.ts`));
    let compiled: Promise<void>;

    before(() => {
      assert.equal(examples.length, 4, 'client/README.md has four TypeScript examples: use, API keys, the events feed, webhooks');
      for (const [i, example] of examples.entries()) writeFileSync(join(project, files[i]!), example);
      // The repository's TypeScript and Node types; the client and openapi-fetch only from the project's own install.
      compiled = run(
        process.execPath,
        [
          join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
          '--strict',
          '--noEmitOnError',
          '--target',
          'es2022',
          '--module',
          'nodenext',
          '--types',
          'node',
          '--typeRoots',
          join(REPO_ROOT, 'node_modules/@types'),
          '--outDir',
          'out',
          ...files,
        ],
        { cwd: project, env: childEnv() },
      ).then(
        () => undefined,
        (error: { stdout?: string; message: string }) => {
          throw new Error(`tsc --strict refused a README example:\n${error.stdout ?? error.message}`);
        },
      );
      compiled.catch(() => {});
    });

    it('the README examples > compiled with tsc --strict against the installed package > type-check', async () => {
      await compiled;
    });

    it('the first README example > run against a live service with a key made by the CLI > does what its comments say', async () => {
      await compiled;
      place = await createEmptyDatabaseUrl('sqlite');
      const migrated = await runCli(['migrate'], { DATABASE_URL: place.url });
      assert.equal(migrated.code, 0, migrated.stderr);
      const created = await runCli(['keys', 'create', '--name', 'packed-client'], { DATABASE_URL: place.url });
      assert.equal(created.code, 0, created.stderr);
      const key = created.stdout.trim().split('\n').at(-1)!;
      const service: RunningService = await spawnService({ databaseUrl: place.url });

      const { stdout } = await run(process.execPath, [join(project, 'out/example.js')], {
        cwd: project,
        env: childEnv({ ANIMAL_STORE_URL: service.baseUrl, KEY: key }),
      });
      const lines = stdout.trim().split('\n');
      assert.equal(lines.length, 3, stdout);
      assert.match(lines[0]!, /^\d+ Rex$/);
      assert.match(lines[1]!, /^order_state_conflict 409 order \d+ is placed; deliver applies only to an? approved order [\w-]+$/);
      assert.equal(lines[2], 'placed');
    });
  });
});
