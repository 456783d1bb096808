/**
 * Specmatic, a contract tester we did not write, against the real service: builds nothing (run
 * `npm run build` first), starts `animal-store serve` on a fresh SQLite file with a fresh key,
 * seeds it through the API, and runs `java -jar node_modules/specmatic/specmatic.jar test` with
 * its generative (resiliency) tests in two passes:
 *
 * - positive: every valid variant must get the success the contract promises. Specmatic invents
 *   every value, and where the contract is right but an invented value cannot succeed (an id
 *   nobody created, a cursor the service did not sign, a key already used for another request),
 *   this pass reads a narrowed copy of openapi.json (`narrowedContract`) that pins those values to
 *   ones that exist; each narrowing says why. It only narrows: every request it allows, the
 *   contract allows.
 * - negative: every invalid variant of openapi.json itself must be refused (4xx). Only the
 *   `cursor` parameters (and the events feed's `Last-Event-ID`, a cursor too) are taken out
 *   (`withoutCursors`): an invented cursor would make every request fail for that reason instead
 *   of the one tested; so is the feed's live stream, which Specmatic cannot read.
 *
 * Exits non-zero on any failure: Specmatic's summary line and its exit code are both checked,
 * because its npm wrapper exits 0 on failures, and a pass that runs too few tests fails too.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runCli, spawnService } from '../test/helpers/spawn-service.js';

const JAR = join(REPO_ROOT, 'node_modules/specmatic/specmatic.jar');
const CONTRACT = join(REPO_ROOT, 'openapi.json');
const work = mkdtempSync(join(tmpdir(), 'animal-store-contract-'));
const databaseUrl = `sqlite:${join(work, 'contract.db')}`;

interface Seeded {
  /** Animals changed, read and removed by the pet operations. */
  petToChange: number;
  petToRead: number;
  petToRemove: number;
  /** An available animal nobody ordered: placeOrder orders it. */
  petToOrder: number;
  /** Orders in the state each action needs, and one to read. */
  orderToApprove: number;
  orderToDeliver: number;
  orderToCancel: number;
  orderToRead: number;
  /** A webhook endpoint for the deliveries' operations, and one of its deliveries. */
  webhookEndpoint: number;
  webhookDelivery: number;
  /** Webhook endpoints: one read, changed and rotated; one removed. */
  webhookEndpointToRead: number;
  webhookEndpointToRemove: number;
  /** API keys: one read, one revoked. Never the key the tests call with: revoking it would refuse every later request (401). */
  apiKeyToRead: number;
  apiKeyToRevoke: number;
}

/**
 * The only webhook URL the positive pass sends. Specmatic invents URLs that are no URL, or not
 * https, which the contract refuses (400). A name under `.invalid` never resolves (RFC 6761), so
 * the service accepts it without any address to check ("a name that does not resolve yet is
 * accepted"), and nothing is ever sent anywhere. test/webhooks covers the refusals.
 */
const CONTRACT_WEBHOOK_URL = 'https://hooks.contract-test.invalid/events';

/** Creates, through the API itself, the animals and orders the tests act on. */
async function seed(baseUrl: string, key: string): Promise<Seeded> {
  const call = async (method: string, path: string, body?: unknown): Promise<{ id: number }> => {
    const response = await fetch(`${baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`seeding: ${method} ${path} answered ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number };
  };
  const pet = async (name: string) => (await call('POST', '/pets', { name, categoryId: 3 })).id;
  const order = async (petId: number) => (await call('POST', '/store/orders', { petId })).id;
  const seeded: Omit<Seeded, 'webhookEndpoint' | 'webhookDelivery'> = {
    petToChange: await pet('Rex'),
    petToRead: await pet('Bella'),
    petToRemove: await pet('Max'),
    petToOrder: await pet('Luna'),
    orderToApprove: await order(await pet('Milo')),
    orderToDeliver: await order(await pet('Coco')),
    orderToCancel: await order(await pet('Nala')),
    orderToRead: await order(await pet('Olly')),
    webhookEndpointToRead: (await call('POST', '/webhook-endpoints', { url: CONTRACT_WEBHOOK_URL, events: ['pet.*'] })).id,
    webhookEndpointToRemove: (await call('POST', '/webhook-endpoints', { url: CONTRACT_WEBHOOK_URL, events: ['order.*'] })).id,
    apiKeyToRead: (await call('POST', '/api-keys', { name: 'read by the contract test', scopes: ['pets:read'] })).id,
    apiKeyToRevoke: (await call('POST', '/api-keys', { name: 'revoked by the contract test', scopes: ['pets:read'] })).id,
  };
  await call('POST', `/store/orders/${seeded.orderToDeliver}/approve`);
  // Deliveries: one endpoint of their own (its URL never resolves: its attempts fail, nothing is sent) and a test message to it.
  const webhookEndpoint = (await call('POST', '/webhook-endpoints', { url: CONTRACT_WEBHOOK_URL, events: ['pet.created'] })).id;
  return { ...seeded, webhookEndpoint, webhookDelivery: (await call('POST', `/webhook-endpoints/${webhookEndpoint}/test`)).id };
}

type Parameter = { name: string; in: string; required?: boolean; schema: Record<string, unknown> };
type Operation = { operationId: string; parameters?: Parameter[]; responses?: Record<string, { content?: Record<string, unknown> }> };
type Contract = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
};

/**
 * openapi.json without the `cursor` parameters. Cursors are signed by the service: any other
 * value is 400 `invalid_cursor`, as the contract says, and Specmatic cannot follow `Link`. It
 * would send an invented cursor with most requests, which fails them all (positive tests) or
 * makes them fail for that reason instead of the one tested (negative tests). The events feed's
 * `Last-Event-ID` header is a cursor too. test/pagination and test/events cover cursors.
 */
function withoutCursors(): Contract {
  const contract = JSON.parse(readFileSync(CONTRACT, 'utf8')) as Contract;
  for (const path of ['/pets', '/store/orders', '/events', '/webhook-endpoints', '/webhook-endpoints/{endpointId}/deliveries', '/api-keys']) {
    const get = contract.paths[path]!.get!;
    if (!get.parameters?.some((p) => p.name === 'cursor')) throw new Error(`withoutCursors: GET ${path} has no cursor: update scripts/contract-test.ts`);
    get.parameters = get.parameters.filter((p) => p.name !== 'cursor' && p.name !== 'Last-Event-ID');
  }
  // The feed's live stream (`text/event-stream`, a response that never ends): Specmatic expects it
  // without sending `Accept: text/event-stream`, and could not read it if it did. test/events covers it.
  const streamed = contract.paths['/events']!.get!.responses?.['200']?.content;
  if (!streamed?.['text/event-stream']) throw new Error('withoutCursors: GET /events has no text/event-stream answer: update scripts/contract-test.ts');
  delete streamed['text/event-stream'];
  return contract;
}

/**
 * The contract as the positive pass sends it: openapi.json with values Specmatic cannot know
 * pinned to ones that exist. It only narrows: every request it allows, the contract allows. (An
 * OpenAPI overlay would say the same, but Specmatic 2.55 applies overlays to paths only, not to
 * components.) The refusals are checked by the negative pass against openapi.json itself.
 */
function narrowedContract(seeded: Seeded): Contract {
  const contract = withoutCursors();
  const operation = (path: string, method: string) => contract.paths[path]![method]!;
  const parameter = (path: string, method: string, name: string) => {
    const found = operation(path, method).parameters?.find((p) => p.name === name);
    if (!found) throw new Error(`narrowedContract: ${method.toUpperCase()} ${path} has no parameter ${name}: update scripts/contract-test.ts`);
    return found;
  };
  const only = (path: string, method: string, name: string, value: string | number) => {
    parameter(path, method, name).schema.enum = [value];
  };

  // Ids: a random id names no animal or order (404, as the contract says); these name seeded ones.
  only('/pets/{petId}', 'get', 'petId', seeded.petToRead);
  only('/pets/{petId}', 'patch', 'petId', seeded.petToChange);
  only('/pets/{petId}', 'delete', 'petId', seeded.petToRemove);
  only('/store/orders/{orderId}', 'get', 'orderId', seeded.orderToRead);
  only('/store/orders/{orderId}/approve', 'post', 'orderId', seeded.orderToApprove);
  only('/store/orders/{orderId}/deliver', 'post', 'orderId', seeded.orderToDeliver);
  only('/store/orders/{orderId}/cancel', 'post', 'orderId', seeded.orderToCancel);
  contract.components.schemas.NewOrder!.properties.petId!.enum = [seeded.petToOrder];
  only('/webhook-endpoints/{endpointId}/deliveries', 'get', 'endpointId', seeded.webhookEndpoint);
  only('/webhook-endpoints/{endpointId}/test', 'post', 'endpointId', seeded.webhookEndpoint);
  only('/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry', 'post', 'endpointId', seeded.webhookEndpoint);
  only('/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry', 'post', 'deliveryId', seeded.webhookDelivery);
  only('/webhook-endpoints/{endpointId}', 'get', 'endpointId', seeded.webhookEndpointToRead);
  only('/webhook-endpoints/{endpointId}', 'patch', 'endpointId', seeded.webhookEndpointToRead);
  only('/webhook-endpoints/{endpointId}', 'delete', 'endpointId', seeded.webhookEndpointToRemove);
  only('/webhook-endpoints/{endpointId}/rotate-secret', 'post', 'endpointId', seeded.webhookEndpointToRead);
  only('/api-keys/{keyId}', 'get', 'keyId', seeded.apiKeyToRead);
  only('/api-keys/{keyId}', 'delete', 'keyId', seeded.apiKeyToRevoke);
  // An invented expiry may be past (400); one far ahead is valid for the calling key, which never expires.
  contract.components.schemas.NewApiKey!.properties.expiresAt!.enum = ['2099-12-31T23:59:59Z'];

  // Webhook URLs: an invented string is no https URL (400); see CONTRACT_WEBHOOK_URL.
  for (const schema of ['NewWebhookEndpoint', 'WebhookEndpointPatch']) contract.components.schemas[schema]!.properties.url!.enum = [CONTRACT_WEBHOOK_URL];

  // wait: a long poll with no event to answer holds its answer up to `wait` seconds, longer than
  // Specmatic's request timeout (10 s); the positive pass asks for the answer at once. The negative
  // pass still sends invalid values of `wait` (refused before any waiting); test/events covers waits.
  only('/events', 'get', 'wait', 0);

  // If-Match: an invented tag never matches the animal's state (412); `*` matches any state.
  only('/pets/{petId}', 'patch', 'If-Match', '*');
  only('/pets/{petId}', 'delete', 'If-Match', '*');

  // Names: Specmatic makes strings from patterns with dk.brics.automaton, which reads neither
  // \p{…} classes nor \u escapes nor lookaheads: from the display-text pattern it invents NULs,
  // lone surrogates and bidi controls that the pattern itself refuses. Plain Latin letters and
  // digits it generates correctly, and the display-text rule accepts them all. Answers are still
  // checked against the real pattern (Pet); the property tests send every other kind of name.
  for (const schema of ['NewPet', 'PetPatch']) contract.components.schemas[schema]!.properties.name!.pattern = '^[A-Za-z0-9][A-Za-z0-9 ]*$';
  // The same display-text rule on webhook endpoints' descriptions (the patch's is a string or null).
  contract.components.schemas.NewWebhookEndpoint!.properties.description!.pattern = '^[A-Za-z0-9][A-Za-z0-9 ]*$';
  contract.components.schemas.NewApiKey!.properties.name!.pattern = '^[A-Za-z0-9][A-Za-z0-9 ]*$';
  for (const choice of contract.components.schemas.WebhookEndpointPatch!.properties.description!.anyOf as Record<string, unknown>[]) {
    if (choice.type === 'string') choice.pattern = '^[A-Za-z0-9][A-Za-z0-9 ]*$';
  }
  parameter('/pets', 'get', 'name').schema.pattern = '^[A-Za-z0-9]+$';

  // Idempotency-Key: Specmatic sends its shortest and longest strings ("0", "000…", "fff…") for
  // different requests, which the contract answers 422 `idempotency_key_reused`. Operations that
  // can be repeated get a random UUID per request, as the contract asks. Those that use up what
  // they act on (a removal, an order, a transition) can succeed once: their variants are sent as
  // retries of one request with one key, which the contract answers with the first answer.
  const usesUp = new Set(['deletePet', 'placeOrder', 'approveOrder', 'deliverOrder', 'cancelOrder', 'deleteWebhookEndpoint']);
  for (const methods of Object.values(contract.paths)) {
    for (const candidate of Object.values(methods)) {
      const key = candidate.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (!key) continue;
      if (usesUp.has(candidate.operationId)) {
        key.required = true;
        key.schema = { type: 'string', enum: [`contract-test-${candidate.operationId}`] };
      } else {
        key.schema = { type: 'string', format: 'uuid' };
      }
    }
  }
  return contract;
}

/** Specmatic's summary line, e.g. `Tests run: 555, Successes: 555, Failures: 0, WIP: 0, Errors: 0`. */
function parseSummary(output: string): { run: number; failures: number; errors: number } | undefined {
  const lines = [...output.matchAll(/Tests run: (\d+), Successes: (\d+), Failures: (\d+), WIP: (\d+), Errors: (\d+)/g)];
  const last = lines.at(-1);
  if (!last) return undefined;
  return { run: Number(last[1]), failures: Number(last[3]), errors: Number(last[5]) };
}

interface Pass {
  name: string;
  /** The contract file Specmatic reads. */
  contract: string;
  /** `positiveOnly` or `all` (specmatic.yaml `test.resiliencyTests.enable`). */
  resiliency: 'positiveOnly' | 'all';
  filter?: string;
  /** Fewer tests than this means a filter or a contract change silently dropped most of them. */
  minTests: number;
}

/** Runs Specmatic once; the number of tests it ran, or an error when anything failed. */
async function runSpecmatic(pass: Pass, baseUrl: string, key: string): Promise<number> {
  const dir = mkdtempSync(join(work, `${pass.name}-`));
  writeFileSync(
    join(dir, 'specmatic.yaml'),
    [
      'version: 2',
      'contracts:',
      '  - provides:',
      `      - ${pass.contract}`,
      'test:',
      '  resiliencyTests:',
      `    enable: ${pass.resiliency}`,
      '  timeoutInMilliseconds: 10000',
      '',
    ].join('\n'),
  );
  const args = ['-jar', JAR, 'test', pass.contract, `--testBaseURL=${baseUrl}/v1`, `--junitReportDir=${join(dir, 'junit')}`];
  const filter = [pass.filter, process.env.CONTRACT_TEST_FILTER]
    .filter(Boolean)
    .map((part) => `(${part})`)
    .join(' && ');
  if (filter) args.push(`--filter=${filter}`);
  console.log(`== contract test, ${pass.name}: java ${args.slice(2).join(' ')}`);
  const java = spawn('java', args, {
    cwd: dir,
    // Specmatic sends the value of the variable named after the security scheme as the bearer token.
    // MAX_TEST_REQUEST_COMBINATIONS bounds the optional-parameter combinations per operation,
    // which otherwise run into the thousands for GET /pets alone.
    env: { MAX_TEST_REQUEST_COMBINATIONS: '4', ...process.env, bearerAuth: key },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  java.stdout.setEncoding('utf8');
  java.stdout.on('data', (chunk: string) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    java.once('error', (error) => reject(new Error(`${pass.name}: could not run java (install Java 17: openjdk-17-jre-headless): ${error.message}`)));
    java.once('close', resolve);
  });
  const summary = parseSummary(output);
  if (!summary) throw new Error(`${pass.name}: Specmatic printed no summary line (exit ${code})`);
  if (summary.failures + summary.errors > 0) throw new Error(`${pass.name}: ${summary.failures} failures and ${summary.errors} errors in ${summary.run} tests`);
  if (summary.run < pass.minTests) throw new Error(`${pass.name}: only ${summary.run} tests ran (at least ${pass.minTests} expected)`);
  if (code !== 0) throw new Error(`${pass.name}: Specmatic exited ${code} although its summary shows no failure`);
  return summary.run;
}

async function main(): Promise<number> {
  const migrated = await runCli(['migrate'], { DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const created = await runCli(['keys', 'create', '--name', 'specmatic'], { DATABASE_URL: databaseUrl });
  if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const key = created.stdout.trim().split('\n').at(-1)!;
  // Rate limits off: Specmatic sends hundreds of requests in a minute with one key.
  const service = await spawnService({ databaseUrl, env: { RATE_LIMIT_PER_MINUTE: '0' } });
  try {
    const seeded = await seed(service.baseUrl, key);
    const narrowed = join(work, 'openapi.narrowed.json');
    writeFileSync(narrowed, JSON.stringify(narrowedContract(seeded), null, 2));
    const uncursored = join(work, 'openapi.without-cursors.json');
    writeFileSync(uncursored, JSON.stringify(withoutCursors(), null, 2));
    const passes: Pass[] = [
      // Every valid request variant Specmatic makes (optional parts, boundaries, enums) must get
      // the success the contract promises.
      // Not POST /api-keys: Specmatic ignores `uniqueItems` (and `maxItems`) and fills `scopes` with one
      // scope repeated, which the contract refuses (400); test/keys covers making keys.
      { name: 'positive', contract: narrowed, resiliency: 'positiveOnly', filter: "PATH!='/api-keys' || METHOD!='POST'", minTests: 150 },
      // Every invalid variant (wrong types, out of bounds, missing parts) of the contract itself
      // must be refused with a 4xx; the filter keeps only these negative tests.
      { name: 'negative', contract: uncursored, resiliency: 'all', filter: "STATUS='400'", minTests: 100 },
    ];
    let total = 0;
    for (const pass of passes) total += await runSpecmatic(pass, service.baseUrl, key);
    console.log(`contract test: ${total} Specmatic tests, no failure`);
    return 0;
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
