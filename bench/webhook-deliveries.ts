/**
 * Webhook deliveries per second (the goal: at least 500/s to a local receiver, on each database).
 * For each database: the real service (bench/servers.ts, pinned like the scenarios' service) with
 * WEBHOOK_ALLOWED_HOSTS=127.0.0.1, one endpoint row pointing at a node:http receiver in this process
 * that answers 204, then WEBHOOK_BENCH_EVENTS pets inserted straight into the table (their events
 * written by the triggers). Measured: from the first delivery's arrival to the last's, so fan-out
 * (which runs meanwhile), claims, sends and the recording of each attempt are in it, the insert is
 * not; deliveries/s, and the service's CPU (with its PostgreSQL backends, found by application_name)
 * per delivery over the whole run.
 *
 * `npm run bench` runs it after the scenarios of each database (BENCH_WEBHOOKS=0 leaves it out);
 * alone: `npx tsx bench/webhook-deliveries.ts` after `npm run build`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { cleanupAll, onCleanup } from './cleanup.js';
import { processCpuSeconds } from './proc.js';
import { startService } from './servers.js';
import { intFromEnv, log, pinThisProcess, POSTGRES_URL, SETTINGS } from './settings.js';
import { backendCpu, bulkInsertPets, postgresTarget, sqliteTarget, type Target } from './targets.js';

const EVENTS = intFromEnv('WEBHOOK_BENCH_EVENTS', 5000, 100, 1_000_000);
/** The floor. */
const WEBHOOK_DELIVERIES_TARGET_PER_SECOND = 500;

interface WebhookBenchResult {
  database: Target['label'];
  events: number;
  seconds: number;
  perSecond: number;
  cpuUsPerDelivery: number | undefined;
}

export async function benchWebhookDeliveries(target: Target): Promise<WebhookBenchResult> {
  let received = 0;
  let firstAt = 0;
  let lastAt = 0;
  let allReceived: () => void = () => {};
  const done = new Promise<void>((resolve) => (allReceived = resolve));
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(204).end();
      if (++received === 1) firstAt = performance.now();
      if (received === EVENTS) {
        lastAt = performance.now();
        allReceived();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const release = onCleanup('close the webhook receiver', () => new Promise((resolve) => receiver.close(() => resolve())));
  const previous = process.env.WEBHOOK_ALLOWED_HOSTS;
  process.env.WEBHOOK_ALLOWED_HOSTS = '127.0.0.1';
  const service = await startService(target, randomBytes(24).toString('base64url'), { profileDir: process.env.WEBHOOK_BENCH_PROFILE_DIR });
  if (previous === undefined) delete process.env.WEBHOOK_ALLOWED_HOSTS;
  else process.env.WEBHOOK_ALLOWED_HOSTS = previous;
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const now = Date.now();
    await target.query(
      `insert into webhook_endpoints (url, description, events, allowed_types, status, secret, created_at, updated_at)
       values ('${url}', 'bench', '["pet.created"]', '["pet.created"]', 'enabled', '${secret}', ${now}, ${now})`,
    );
    const cpuBefore = await serviceCpu(service.pids(), target);
    await bulkInsertPets(target, EVENTS);
    await done;
    const seconds = (lastAt - firstAt) / 1000;
    const cpuAfter = await serviceCpu(service.pids(), target);
    const [succeeded] = await target.query<{ n: number | string }>(`select count(*) as n from webhook_deliveries where state = 'succeeded'`);
    if (Number(succeeded?.n) !== EVENTS) log(`  note: ${succeeded?.n} of ${EVENTS} deliveries recorded as succeeded when the last arrived`);
    return {
      database: target.label,
      events: EVENTS,
      seconds,
      perSecond: (EVENTS - 1) / seconds,
      cpuUsPerDelivery: cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / EVENTS,
    };
  } finally {
    await service.stop();
    await release();
  }
}

/** CPU seconds of the service's processes, plus its PostgreSQL backends'. */
async function serviceCpu(pids: number[], target: Target): Promise<number | undefined> {
  let total = 0;
  for (const pid of pids) {
    const seconds = processCpuSeconds(pid);
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  const backends = await backendCpu(target);
  for (const seconds of backends?.values() ?? []) total += seconds;
  return total;
}

export function describeWebhookResult(result: WebhookBenchResult): string {
  const cpu =
    result.cpuUsPerDelivery === undefined
      ? ''
      : `, ${Math.round(result.cpuUsPerDelivery)} µs CPU per delivery (service${result.database === 'PostgreSQL' ? ' + database' : ''})`;
  const verdict = result.perSecond >= WEBHOOK_DELIVERIES_TARGET_PER_SECOND ? 'meets' : 'MISSES';
  return `Webhook deliveries, ${result.database}: ${result.events} events to one local receiver answering 204 in ${result.seconds.toFixed(2)} s (first to last arrival): ${Math.round(result.perSecond)} deliveries/s${cpu}; ${verdict} the target of ${WEBHOOK_DELIVERIES_TARGET_PER_SECOND}/s.`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    pinThisProcess();
    const targets: (() => Promise<Target>)[] = SETTINGS.databases.has('sqlite') ? [sqliteTarget] : [];
    const postgresUrl = POSTGRES_URL;
    if (postgresUrl && SETTINGS.databases.has('postgres')) targets.push(() => postgresTarget(postgresUrl));
    for (const makeTarget of targets) {
      const target = await makeTarget();
      log(describeWebhookResult(await benchWebhookDeliveries(target)));
      await cleanupAll();
    }
  } finally {
    await cleanupAll();
  }
}
