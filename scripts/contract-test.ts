/**
 * Specmatic, a contract tester we did not write, against the real service: builds nothing (run
 * `npm run build` first), starts `animal-store serve` on a fresh SQLite file with a fresh key, and
 * runs `java -jar node_modules/specmatic/specmatic.jar test openapi.json` with its generative
 * (resiliency) tests, positive and negative, on. Exits non-zero on any failure: the jar's own exit
 * code and its report are both checked, because its npm wrapper exits 0 on failures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runCli, spawnService } from '../test/helpers/spawn-service.js';

const JAR = join(REPO_ROOT, 'node_modules/specmatic/specmatic.jar');
const work = mkdtempSync(join(tmpdir(), 'animal-store-contract-'));
const databaseUrl = `sqlite:${join(work, 'contract.db')}`;

async function main(): Promise<number> {
  const migrated = await runCli(['migrate'], { DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const created = await runCli(['keys', 'create', '--name', 'specmatic'], { DATABASE_URL: databaseUrl });
  if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const key = created.stdout.trim().split('\n').at(-1)!;
  // Rate limits off: Specmatic sends hundreds of requests in a minute with one key.
  const service = await spawnService({ databaseUrl, env: { RATE_LIMIT_PER_MINUTE: '0' } });
  try {
    writeFileSync(
      join(work, 'specmatic.yaml'),
      ['version: 2', 'contracts:', '  - provides:', `      - ${join(REPO_ROOT, 'openapi.json')}`, 'test:', '  resiliencyTests:', '    enable: all', '  timeoutInMilliseconds: 10000', ''].join('\n'),
    );
    const reportDir = join(work, 'junit');
    const java = spawn('java', ['-jar', JAR, 'test', join(REPO_ROOT, 'openapi.json'), `--testBaseURL=${service.baseUrl}/v1`, `--junitReportDir=${reportDir}`], {
      cwd: work,
      // Specmatic sends the value of the variable named after the security scheme as the bearer token.
      // MAX_TEST_REQUEST_COMBINATIONS bounds the optional-parameter combinations per operation,
      // which otherwise run into the thousands for GET /pets alone.
      env: { MAX_TEST_REQUEST_COMBINATIONS: '4', ...process.env, bearerAuth: key },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => java.once('exit', resolve));
    return code ?? 1;
  } finally {
    await service.stop();
  }
}

// spawnService unrefs its child (tests must not hang on it): keep this process alive meanwhile.
const keepAlive = setInterval(() => {}, 60_000);
let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error);
} finally {
  rmSync(work, { recursive: true, force: true });
  clearInterval(keepAlive);
}
console.log(code === 0 ? 'contract test: Specmatic found no failure' : `contract test: FAILED (exit ${code})`);
process.exit(code);
