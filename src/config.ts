/**
 * Configuration: read once from the environment at boot, validated as a whole,
 * so an operator sees every bad value in one message instead of one per restart.
 */

import { DATABASE_URL_FORMS, dialectOf, redactPassword } from './db/database-url.js';
import { postgresConfigOf } from './db/postgres/url.js';
import { type CorsOrigins, parseCorsOrigins } from './http/cors-policy.js';
import { CONFIG_DEFAULTS, CONFIG_RANGES, type ConfigVariable } from './config-defaults.js';
import { minimumLeaseSeconds } from './webhooks/webhook-lease.js';

export { CONFIG_DEFAULTS, CONFIG_RANGES, CONFIG_SECRETS, defaultEnvironment } from './config-defaults.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  databasePoolMax: number;
  databaseStatementTimeoutMs: number;
  logLevel: LogLevel;
  publicBaseUrl: string;
  stagingBaseUrl: string;
  bodyLimitBytes: number;
  keyCacheTtlMs: number;
  rateLimitPerMinute: number;
  /** Fastify's trustProxy: whether (or which) proxies' X-Forwarded-For to believe. */
  trustProxy: boolean | number | string[];
  shutdownTimeoutMs: number;
  /** Signs pagination cursors; unset, the service makes one and keeps it in the database. Never logged. */
  cursorSecret: string | undefined;
  /** Browser origins allowed to call /v1 (`*` for any); empty turns CORS off. */
  corsOrigins: CorsOrigins;
  /** Serve /metrics on this port instead of the main one; unset, on the main port. */
  metricsPort: number | undefined;
  /** Bearer token /metrics requires; unset, /metrics is open. Never logged. */
  metricsToken: string | undefined;
  /** Shares rate-limit counts and key revocations with the fleet; unset, both stay in this process. Never logged whole. */
  redisUrl: string | undefined;
  /** Names this deployment's keys and channels in Redis. */
  redisKeyPrefix: string;
  /** How often the rate-limit counts are pushed to Redis and the fleet's totals read back. */
  rateLimitSyncMs: number;
  /** How often the keys' last use, gathered in memory, is written to the database. */
  keyLastUsedFlushMs: number;
  /** How long an Idempotency-Key and its answer are kept (hours). */
  idempotencyKeyTtlHours: number;
  /** How long events are kept in the feed (days); older ones are purged. */
  eventRetentionDays: number;
  /** Host names or addresses a webhook may be sent to although they are not public (lower case, IPv6 without brackets); http allowed for them. */
  webhookAllowedHosts: string[];
  /** Seconds before each attempt of a webhook delivery, from the first; after the last, the delivery has failed. */
  webhookRetryScheduleSeconds: number[];
  /** Seconds a dispatcher holds a delivery it claimed (at least 2 × (statement timeout + 2 s)); an attempt times out within half of it less the statement timeout and a second (15 s at most). */
  webhookLeaseSeconds: number;
  /** Most webhook sockets a process has open at once (in use or idle): its sends in flight. */
  webhookMaxSockets: number;

  /** Most live streams of the events feed one key may hold open on one process. */
  eventStreamsPerKey: number;
  /** Serve the browser console at /console/. */
  consoleEnabled: boolean;
}

/** Shortest CURSOR_SECRET accepted: 32 characters, so a random one carries enough to resist guessing. */
export const CURSOR_SECRET_MIN_LENGTH = 32;

/** Shortest METRICS_TOKEN accepted, so a scraper's token resists guessing. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: ConfigVariable): string => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? String(CONFIG_DEFAULTS[name]) : value.trim();
  };

  const integer = (name: keyof typeof CONFIG_RANGES): number => {
    const raw = read(name);
    const { min, max } = CONFIG_RANGES[name];
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      // Only to finish reading the rest: a problem stops the start.
      return min;
    }
    return Number(raw);
  };

  const baseUrl = (name: 'PUBLIC_BASE_URL' | 'STAGING_BASE_URL', fallback: string): string => {
    const given = env[name]?.trim();
    const raw = (given ? given : fallback).replace(/\/+$/, '');
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || !url.pathname.endsWith('/v1')) {
      problems.push(`${name} must be an http(s) URL ending in /v1 (got ${JSON.stringify(raw)})`);
      return fallback;
    }
    return raw;
  };

  const parseTrustProxy = (raw: string): Config['trustProxy'] => {
    if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
    if (/^\d{1,2}$/.test(raw)) return Number(raw);
    const addresses = raw.split(',').map((part) => part.trim());
    if (addresses.every((part) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(part))) return addresses;
    problems.push(`TRUST_PROXY must be true, false, a number of proxy hops, or comma-separated proxy addresses/CIDRs (got ${JSON.stringify(raw)})`);
    return false;
  };

  const host = read('HOST');
  if (!/^[A-Za-z0-9.:-]+$/.test(host)) problems.push(`HOST must be an IP address or a host name (got ${JSON.stringify(host)})`);

  const logLevel = read('LOG_LEVEL') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(logLevel)})`);
  }

  const databaseUrl = read('DATABASE_URL');
  if (dialectOf(databaseUrl) === undefined) {
    problems.push(`DATABASE_URL must be ${DATABASE_URL_FORMS} (got ${JSON.stringify(redactPassword(databaseUrl))})`);
  } else if (dialectOf(databaseUrl) === 'postgres') {
    // Its parameters (TLS, settings for the server) are checked, and TLS files read, before anything starts.
    try {
      postgresConfigOf(databaseUrl);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }

  const bodyLimitBytes = parseByteSize(read('BODY_LIMIT'));
  if (bodyLimitBytes === undefined || bodyLimitBytes < 1024 || bodyLimitBytes > 16 * 1024 * 1024) {
    problems.push(`BODY_LIMIT must be a size from 1KiB to 16MiB, such as 65536 or 64KiB (got ${JSON.stringify(read('BODY_LIMIT'))})`);
  }

  // The value itself never goes into a message: it is a secret.
  const cursorSecret = env.CURSOR_SECRET === undefined || env.CURSOR_SECRET.trim() === '' ? undefined : env.CURSOR_SECRET.trim();
  if (cursorSecret !== undefined && [...cursorSecret].length < CURSOR_SECRET_MIN_LENGTH) {
    problems.push(
      `CURSOR_SECRET must have at least ${CURSOR_SECRET_MIN_LENGTH} characters (got ${[...cursorSecret].length}); unset, the service keeps a secret of its own in the database`,
    );
  }

  const corsOrigins = parseCorsOrigins(read('CORS_ORIGINS'));
  if ('problem' in corsOrigins) problems.push(corsOrigins.problem);

  const problemsBeforePorts = problems.length;
  const port = integer('PORT');
  const metricsPort = read('METRICS_PORT') === '' ? undefined : integer('METRICS_PORT');
  // Only ports both accepted can clash: a refused one reads as its range's minimum.
  if (problems.length === problemsBeforePorts && metricsPort !== undefined && metricsPort === port)
    problems.push(`METRICS_PORT must differ from PORT (both are ${port}); unset it to serve /metrics on the main port`);

  // Like CURSOR_SECRET, the value itself never goes into a message.
  const metricsToken = env.METRICS_TOKEN === undefined || env.METRICS_TOKEN.trim() === '' ? undefined : env.METRICS_TOKEN.trim();
  if (metricsToken !== undefined && (metricsToken.length < METRICS_TOKEN_MIN_LENGTH || !/^[\x21-\x7e]+$/.test(metricsToken))) {
    problems.push(`METRICS_TOKEN must have at least ${METRICS_TOKEN_MIN_LENGTH} printable characters without spaces (got ${metricsToken.length} characters)`);
  }
  const redisUrl = read('REDIS_URL') === '' ? undefined : read('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    problems.push(`REDIS_URL must be a redis:// or rediss:// URL (got ${JSON.stringify(redisUrl.replace(/\/\/[^@/]*@/, '//***@'))})`);
  }
  const redisKeyPrefix = read('REDIS_KEY_PREFIX');
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(redisKeyPrefix)) {
    problems.push(`REDIS_KEY_PREFIX must have 1 to 64 letters, digits or :_.- (got ${JSON.stringify(redisKeyPrefix)})`);
  }

  const webhookAllowedHosts = parseWebhookAllowedHosts(read('WEBHOOK_ALLOWED_HOSTS'));
  if ('problem' in webhookAllowedHosts) problems.push(webhookAllowedHosts.problem);
  const webhookRetrySchedule = parseRetrySchedule(read('WEBHOOK_RETRY_SCHEDULE'));
  if ('problem' in webhookRetrySchedule) problems.push(webhookRetrySchedule.problem);

  // Across two settings: an attempt reads its endpoint and records its outcome (a statement each, up to
  // the statement timeout) and is sent, all within its lease (webhooks/webhook-lease.ts). Only values both accepted are compared.
  const problemsBeforeLease = problems.length;
  const databaseStatementTimeoutMs = integer('DATABASE_STATEMENT_TIMEOUT_MS');
  const webhookLeaseSeconds = integer('WEBHOOK_LEASE_SECONDS');
  const shortestLease = minimumLeaseSeconds(databaseStatementTimeoutMs);
  if (problems.length === problemsBeforeLease && webhookLeaseSeconds < shortestLease) {
    problems.push(
      `WEBHOOK_LEASE_SECONDS must be at least ${shortestLease} with DATABASE_STATEMENT_TIMEOUT_MS=${databaseStatementTimeoutMs}: twice the statement timeout, 1 s for an attempt and 1 s to record it (got ${webhookLeaseSeconds}); raise it or lower the statement timeout`,
    );
  }

  const consoleEnabled = read('CONSOLE_ENABLED').toLowerCase();
  if (consoleEnabled !== 'true' && consoleEnabled !== 'false')
    problems.push(`CONSOLE_ENABLED must be true or false (got ${JSON.stringify(read('CONSOLE_ENABLED'))})`);

  // Unset, the public URL follows PORT: the document a local process serves names that process.
  const localBaseUrl = `http://localhost:${port || CONFIG_DEFAULTS.PORT}/v1`;

  const config: Config = {
    port,
    host,
    databaseUrl,
    databasePoolMax: integer('DATABASE_POOL_MAX'),
    databaseStatementTimeoutMs,
    logLevel: LOG_LEVELS.includes(logLevel) ? logLevel : CONFIG_DEFAULTS.LOG_LEVEL,
    publicBaseUrl: baseUrl('PUBLIC_BASE_URL', localBaseUrl),
    stagingBaseUrl: baseUrl('STAGING_BASE_URL', CONFIG_DEFAULTS.STAGING_BASE_URL),
    bodyLimitBytes: bodyLimitBytes ?? 0,
    keyCacheTtlMs: integer('KEY_CACHE_TTL_MS'),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE'),
    trustProxy: parseTrustProxy(read('TRUST_PROXY')),
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS'),
    cursorSecret,
    corsOrigins: 'origins' in corsOrigins ? corsOrigins.origins : [],
    metricsPort,
    metricsToken,
    redisUrl,
    redisKeyPrefix,
    rateLimitSyncMs: integer('RATE_LIMIT_SYNC_MS'),
    keyLastUsedFlushMs: integer('KEY_LAST_USED_FLUSH_MS'),
    idempotencyKeyTtlHours: integer('IDEMPOTENCY_KEY_TTL_HOURS'),
    eventRetentionDays: integer('EVENT_RETENTION_DAYS'),
    webhookAllowedHosts: 'hosts' in webhookAllowedHosts ? webhookAllowedHosts.hosts : [],
    webhookRetryScheduleSeconds: 'seconds' in webhookRetrySchedule ? webhookRetrySchedule.seconds : [],
    webhookLeaseSeconds,
    webhookMaxSockets: integer('WEBHOOK_MAX_SOCKETS'),

    eventStreamsPerKey: integer('EVENT_STREAMS_PER_KEY'),
    consoleEnabled: consoleEnabled !== 'false',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1000, kib: 1024, mb: 1_000_000, mib: 1024 * 1024 };

export function parseByteSize(raw: string): number | undefined {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw);
  const unit = match && BYTE_UNITS[match[2]!.toLowerCase()];
  return match && unit ? Number(match[1]) * unit : undefined;
}

/** Most attempts a webhook delivery may get, and the longest wait before one (a week). */
const WEBHOOK_RETRY_SCHEDULE_LIMITS = { attempts: 20, maxSeconds: 604_800 } as const;

/** WEBHOOK_ALLOWED_HOSTS: comma-separated host names or IP addresses (IPv6 with or without brackets). */
function parseWebhookAllowedHosts(raw: string): { hosts: string[] } | { problem: string } {
  if (raw === '') return { hosts: [] };
  const hosts = raw.split(',').map((part) =>
    part
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1'),
  );
  const bad = hosts.filter((host) => !/^[a-z0-9]([a-z0-9.-]{0,252})$/.test(host) && !/^[0-9a-f:.]{2,45}$/.test(host));
  if (bad.length > 0)
    return { problem: `WEBHOOK_ALLOWED_HOSTS must be comma-separated host names or IP addresses, without scheme or port (got ${JSON.stringify(raw)})` };
  return { hosts: [...new Set(hosts)] };
}

/** WEBHOOK_RETRY_SCHEDULE: comma-separated whole seconds, one per attempt, the first before the first attempt. */
function parseRetrySchedule(raw: string): { seconds: number[] } | { problem: string } {
  const parts = raw.split(',').map((part) => part.trim());
  const { attempts, maxSeconds } = WEBHOOK_RETRY_SCHEDULE_LIMITS;
  if (parts.length > attempts || !parts.every((part) => /^\d{1,7}$/.test(part) && Number(part) <= maxSeconds)) {
    return {
      problem: `WEBHOOK_RETRY_SCHEDULE must be 1 to ${attempts} comma-separated whole seconds from 0 to ${maxSeconds}, one per attempt (got ${JSON.stringify(raw)})`,
    };
  }
  return { seconds: parts.map(Number) };
}
