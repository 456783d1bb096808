/**
 * Metrics under `--workers N`: the primary process gathers every worker's metrics with
 * prom-client's AggregatorRegistry (counters and histograms summed over the workers, gauges
 * summed, a few process gauges averaged or taken once), so one scrape sees the whole service.
 * - With METRICS_PORT, the primary serves the sum there itself.
 * - Without it, /metrics is on the shared main port, where any worker may take the scrape:
 *   that worker asks the primary over the cluster's IPC channel and answers the sum, so every
 *   scrape, whichever worker takes it, says the same thing.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { droppedStdoutLogLines } from '../log-destination.js';
import type { AppMetrics } from './metrics.js';

const REQUEST = 'animal-store:metrics-request';
const RESPONSE = 'animal-store:metrics-response';
/** Longer than prom-client's own 5 s wait for the workers, so its clearer error arrives first. */
const RELAY_TIMEOUT_MS = 7000;

interface RelayMessage {
  type: string;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary, before forking: answers workers' requests for the sum; the render for METRICS_PORT. */
export function gatherWorkerMetrics(): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  // The primary writes lines too, and relays the workers' where stdout is a socket: the lines it
  // dropped count with the workers'.
  const gather = () => aggregator.clusterMetrics().then(withPrimaryDroppedLines);
  cluster.on('message', (worker, message: RelayMessage) => {
    if (message?.type !== REQUEST) return;
    gather().then(
      (text) => worker.send({ type: RESPONSE, id: message.id, text }),
      (error: Error) => worker.send({ type: RESPONSE, id: message.id, error: error.message }),
    );
  });
  return gather;
}

const DROPPED_SAMPLE = /^animal_store_log_lines_dropped_total (\d+)$/m;

/** The workers' sum of dropped log lines, plus the primary's own. */
function withPrimaryDroppedLines(text: string): string {
  const own = droppedStdoutLogLines();
  if (own === 0) return text;
  return text.replace(DROPPED_SAMPLE, (_line, workers: string) => `animal_store_log_lines_dropped_total ${Number(workers) + own}`);
}

/** In a worker: offers this worker's metrics to the primary, and answers a render that asks the primary for the sum. */
export function offerWorkerMetrics(metrics: AppMetrics): () => Promise<string> {
  // Constructing one is what makes prom-client answer the primary's requests in this worker.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries(metrics.registries());

  let nextId = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  process.on('message', (message: RelayMessage) => {
    if (message?.type !== RESPONSE) return;
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.text !== undefined) waiter?.resolve(message.text);
    else waiter?.reject(new Error(`the primary could not gather the metrics: ${message.error}`));
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary did not answer the metrics request in time'));
      }, RELAY_TIMEOUT_MS);
      waiting.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send!({ type: REQUEST, id });
    });
}
