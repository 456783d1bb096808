/**
 * Counts one answer into the metrics (metrics.ts), called by the completion phase of
 * request-pipeline.ts after the answer has gone out. Rate-limit refusals are recognised by their
 * status and code: 429 is `rate_limited`'s and `too_many_streams`' (errors.ts), so the code the error
 * handler answered with tells them apart, and the rate limiter itself knows nothing of metrics.
 *
 * Cheap per request: prom-client joins and hashes a
 * labels object at every `inc` and `observe`. A route's labels are worked out once, its answers
 * are counted in the route's own tallies (metrics.ts's `countAnswerOf`, added up when scraped),
 * and its latency goes to the histogram child of its method. Bounded: one entry per route
 * (routes are the service's own), per status of that route and per method of that route, each
 * capped at MAX_PER_ROUTE; beyond that, and for unrouted requests, the plain path below.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../errors.js';
import { errorCodeOf } from '../http/error-handler.js';
import { operationOf } from '../http/operation-label.js';
import type { AppMetrics } from './metrics.js';

const RATE_LIMITED_STATUS = ERROR_CODES.rate_limited.status;
/** Statuses (and methods) kept ready per route: a route answers with a handful. */
const MAX_PER_ROUTE = 32;

interface RouteSeries {
  operation: string;
  deprecated: boolean;
  /** One tally per status: `count()` adds one answer. */
  answers: Map<number, () => void>;
  /** The latency histogram's child per method. */
  durations: Map<string, { observe(seconds: number): void }>;
}

export type CountAnswer = (request: FastifyRequest, reply: FastifyReply) => void;

/** The completion phase's counter of answers, for one app's metrics. */
export function answerCounter(metrics: AppMetrics): CountAnswer {
  // Keyed by the route's own config object, which Fastify makes once per route.
  const routes = new WeakMap<object, RouteSeries>();
  return (request, reply) => {
    const { url, config, schema } = request.routeOptions;
    if (url === undefined) return countUnrouted(metrics, request, reply);
    let route = routes.get(config);
    if (route === undefined) {
      const deprecated = (schema as { deprecated?: unknown } | undefined)?.deprecated === true;
      route = { operation: operationOf(request), deprecated, answers: new Map(), durations: new Map() };
      routes.set(config, route);
    }
    const { operation } = route;
    const status = reply.statusCode;
    let count = route.answers.get(status);
    if (count === undefined) {
      count = metrics.countAnswerOf(operation, status);
      if (route.answers.size < MAX_PER_ROUTE) route.answers.set(status, count);
    }
    count();
    const method = request.method;
    let duration = route.durations.get(method);
    if (duration === undefined) {
      duration = metrics.duration.labels(method, url);
      if (route.durations.size < MAX_PER_ROUTE) route.durations.set(method, duration);
    }
    duration.observe(reply.elapsedTime / 1000);
    if (status === RATE_LIMITED_STATUS && errorCodeOf(reply) === 'rate_limited') metrics.rateLimited.inc({ operation });
    if (route.deprecated && request.apiKey) metrics.countDeprecatedCall(operation, request.apiKey.id);
  };
}

/** An answer to a path no route matched (404, 405, a preflight): its operation depends on the request. */
function countUnrouted(metrics: AppMetrics, request: FastifyRequest, reply: FastifyReply): void {
  const operation = operationOf(request);
  metrics.countAnswerOf(operation, reply.statusCode)();
  metrics.duration.observe({ method: request.method, route: 'unmatched' }, reply.elapsedTime / 1000);
  if (reply.statusCode === RATE_LIMITED_STATUS && errorCodeOf(reply) === 'rate_limited') metrics.rateLimited.inc({ operation });
}
