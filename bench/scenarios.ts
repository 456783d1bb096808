/**
 * The scenarios (bench/README.md has the table): each one's requests, the status it expects,
 * the phase it runs in, its connections and seconds, whether the naive peers (bench/peers/) serve
 * it, and what it prepares before each service run.
 */
import { petCursorFilters, petCursors } from '../src/pets/pets.cursor.js';
import type { LoadSpec } from './load.js';
import { HAS_TASKSET, SETTINGS } from './settings.js';
import { bulkInsertPets, type Target } from './targets.js';

/** Available pets seeded per second of a placeOrder run (each order takes another one). */
const ORDER_PETS_PER_SECOND = 15_000;
/** The clients of the tail-latency scenario, each waiting for its answer before its next request. */
export const SEQUENTIAL_CLIENTS = 16;

export interface Scenario {
  name: string;
  description: string;
  /** `seeded`: on the seeded table; `big`: after it was grown to BENCH_BIG_PETS; `workers`: `serve --workers 2`. */
  phase: 'seeded' | 'big' | 'workers';
  expectedStatus: number;
  spec: LoadSpec;
  /** Concurrent connections (BENCH_CONNECTIONS unless the scenario says otherwise). */
  connections: number;
  /** Measured seconds per run (BENCH_SECONDS unless the scenario says otherwise). */
  seconds: number;
  /** Whether the peers serve these requests (GET /v1/pets?limit=N and GET /v1/pets/{id} only). */
  peerServes: boolean;
  /** Before each service run (unmeasured): for example, seed the pets the orders will take. */
  beforeServiceRun?: () => Promise<void>;
}

export interface Context {
  target: Target;
  key: string;
  seeded: { first: number; last: number };
  cursorSecret: string;
}

type ScenarioDraft = Omit<Scenario, 'connections' | 'seconds' | 'peerServes'> & Partial<Pick<Scenario, 'connections' | 'seconds' | 'peerServes'>>;

export function scenarios(context: Context): Scenario[] {
  return drafts(context).map((draft) => ({ connections: SETTINGS.connections, seconds: SETTINGS.seconds, peerServes: false, ...draft }));
}

function drafts(context: Context): ScenarioDraft[] {
  const authorization = `Bearer ${context.key}`;
  const { seeded } = context;
  const deepAfterId = Math.floor(SETTINGS.bigPets * 0.9);
  const deepCursor = petCursors(context.cursorSecret).encode(deepAfterId, petCursorFilters({}));
  const createBody = JSON.stringify({ name: 'Bench pet', categoryId: 3, status: 'available' });
  const order: LoadSpec = { mode: 'ids', method: 'POST', path: '/v1/store/orders', body: '{"petId":{id}}', authorization, idRange: { first: 1, last: 1 } };
  // Each order takes an available pet: before each service run, as many as it could place at most
  // (a generous guess of 5,000 orders/s) are seeded, one block for the warm-up and one for the run.
  // More than the service can order in a second (about 8,000 on SQLite here), so no run runs out of pets.
  const orderPets = SETTINGS.orderPets || (SETTINGS.seconds + 1) * ORDER_PETS_PER_SECOND;
  const warmupOrderPets = SETTINGS.warmupSeconds === 0 ? 0 : SETTINGS.orderPets || (SETTINGS.warmupSeconds + 1) * ORDER_PETS_PER_SECOND;
  const list20: LoadSpec = { mode: 'fixed', method: 'GET', path: '/v1/pets?limit=20', authorization };
  return [
    {
      name: 'list20',
      phase: 'seeded',
      expectedStatus: 200,
      spec: list20,
      peerServes: true,
      description: `GET /v1/pets?limit=20 at ${SETTINGS.seedPets.toLocaleString('en')} pets`,
    },
    {
      name: 'list20-seq16',
      phase: 'seeded',
      expectedStatus: 200,
      spec: list20,
      peerServes: true,
      connections: SEQUENTIAL_CLIENTS,
      seconds: SETTINGS.sequentialSeconds,
      description: `GET /v1/pets?limit=20 from ${SEQUENTIAL_CLIENTS} sequential clients (each sends its next request when its answer arrived) for ${SETTINGS.sequentialSeconds} s per run: the tail, p99.9 and the slowest answer`,
    },
    {
      name: 'list100',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { ...list20, path: '/v1/pets?limit=100' },
      peerServes: true,
      description: 'GET /v1/pets?limit=100',
    },
    {
      name: 'list-filter',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { ...list20, path: '/v1/pets?limit=20&status=available&categoryId=3' },
      description: 'GET /v1/pets?limit=20&status=available&categoryId=3 (1 pet in 30 matches)',
    },
    {
      name: 'list-name',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { ...list20, path: '/v1/pets?limit=20&name=k' },
      description: 'GET /v1/pets?limit=20&name=k: a name prefix matching 1 pet in 26, sorted by id per page',
    },
    {
      name: 'getPet',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { mode: 'ids', method: 'GET', path: '/v1/pets/{id}', authorization, idRange: seeded },
      peerServes: true,
      description: 'GET /v1/pets/{id} (deprecated getPet), ids cycling over the seeded pets',
    },
    {
      name: 'list-id',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { mode: 'ids', method: 'GET', path: '/v1/pets?id={id}', authorization, idRange: seeded },
      description: 'GET /v1/pets?id={id} (getPet’s replacement), ids cycling over the seeded pets',
    },
    {
      name: 'patch',
      phase: 'seeded',
      expectedStatus: 200,
      spec: {
        mode: 'ids',
        method: 'PATCH',
        path: '/v1/pets/{id}',
        body: '{"name":"Renamed {id}"}',
        contentType: 'application/merge-patch+json',
        authorization,
        idRange: seeded,
      },
      description: 'PATCH /v1/pets/{id} changing the name (merge patch, no If-Match), ids cycling over the seeded pets',
    },
    {
      name: 'createPet',
      phase: 'seeded',
      expectedStatus: 201,
      spec: { mode: 'fixed', method: 'POST', path: '/v1/pets', body: createBody, authorization },
      description: 'POST /v1/pets (no Idempotency-Key)',
    },
    {
      name: 'placeOrder',
      phase: 'seeded',
      expectedStatus: 201,
      spec: order,
      description: `POST /v1/store/orders, each order for another available pet (${orderPets.toLocaleString('en')} seeded straight into the table before each service run)`,
      async beforeServiceRun() {
        if (warmupOrderPets > 0) order.warmupIdRange = await bulkInsertPets(context.target, warmupOrderPets, 'available');
        order.idRange = await bulkInsertPets(context.target, orderPets, 'available');
      },
    },
    {
      name: 'mix-95-5',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { ...list20, mode: 'mix', write: { method: 'POST', path: '/v1/pets', body: createBody, every: 20 } },
      description: '95 % GET /v1/pets?limit=20, 5 % POST /v1/pets',
    },
    {
      name: 'list20-1m',
      phase: 'big',
      expectedStatus: 200,
      spec: list20,
      peerServes: true,
      description: `GET /v1/pets?limit=20 with ${SETTINGS.bigPets.toLocaleString('en')} pets in the table`,
    },
    {
      name: 'deep-cursor-1m',
      phase: 'big',
      expectedStatus: 200,
      spec: { ...list20, path: `/v1/pets?limit=20&cursor=${deepCursor}` },
      description: `GET /v1/pets?limit=20&cursor=… after id ${deepAfterId.toLocaleString('en')} of ${SETTINGS.bigPets.toLocaleString('en')} (a signed cursor made with the service’s own codec)`,
    },
    {
      name: 'list20-workers2',
      phase: 'workers',
      expectedStatus: 200,
      spec: list20,
      peerServes: true,
      description: `GET /v1/pets?limit=20 against \`serve --workers 2\` (pinned to CPUs ${HAS_TASKSET ? SETTINGS.workersCpus : 'none'}; CPU summed over the primary and its workers), on the table as the run left it`,
    },
  ];
}
