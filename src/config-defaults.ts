/**
 * The settings' defaults and the ranges of the whole-number ones: one table, which config.ts
 * reads, the parts that run without a whole Config (createDb, buildApp's optional settings) fall
 * back to, and the tests compare `.env.example` and the README's configuration table against,
 * word for word. Free of imports, so anything may read it without an import cycle.
 */

const DEFAULT_PORT = 8080;

/** Each setting's default, in the type the service uses; its text in the environment is `String(value)`. */
export const CONFIG_DEFAULTS = {
  PORT: DEFAULT_PORT,
  HOST: '127.0.0.1',
  DATABASE_URL: 'sqlite:./data/animal-store.db',
  DATABASE_POOL_MAX: 10,
  DATABASE_STATEMENT_TIMEOUT_MS: 5000,
  LOG_LEVEL: 'info',
  /** Unset, the public URL follows PORT: http://localhost:PORT/v1 (this is its value for the default PORT). */
  PUBLIC_BASE_URL: `http://localhost:${DEFAULT_PORT}/v1`,
  STAGING_BASE_URL: 'http://localhost:8081/v1',
  BODY_LIMIT: '64KiB',
  KEY_CACHE_TTL_MS: 5000,
  RATE_LIMIT_PER_MINUTE: 1200,
  TRUST_PROXY: false,
  SHUTDOWN_TIMEOUT_MS: 10_000,
  /** Empty: no browser origin may call the API. */
  CORS_ORIGINS: '',
  /** Empty: /metrics is on the main port. */
  METRICS_PORT: '',
  /** Empty: rate limits and the key cache are this process's alone. */
  REDIS_URL: '',
  REDIS_KEY_PREFIX: 'animal-store:',
  RATE_LIMIT_SYNC_MS: 250,
  KEY_LAST_USED_FLUSH_MS: 10_000,
  IDEMPOTENCY_KEY_TTL_HOURS: 24,
  EVENT_RETENTION_DAYS: 30,
  /** Empty: every webhook URL must be https and resolve only to public addresses. */
  WEBHOOK_ALLOWED_HOSTS: '',
  /** Seconds before each attempt of a delivery: at once, then as Standard Webhooks suggests. */
  WEBHOOK_RETRY_SCHEDULE: '0,5,300,1800,7200,18000,36000,36000',
  /** How long a claimed delivery stays its dispatcher's: past it, another may send it again. */
  WEBHOOK_LEASE_SECONDS: 60,
  /** Webhook sockets (sends in flight) per process: a quarter of the common 1024 descriptors, and room for every endpoint's first send. */
  WEBHOOK_MAX_SOCKETS: 256,

  EVENT_STREAMS_PER_KEY: 5,
  /** The browser console at /console/; `false` answers 404 there. */
  CONSOLE_ENABLED: true,
} as const;

export type ConfigVariable = keyof typeof CONFIG_DEFAULTS;

/** The settings that have no default (secrets): unset, the feature they configure is off or self-managed. */
export const CONFIG_SECRETS = ['CURSOR_SECRET', 'METRICS_TOKEN'] as const;

/** What each whole-number setting accepts, bounds included. */
export const CONFIG_RANGES = {
  PORT: { min: 0, max: 65535 },
  METRICS_PORT: { min: 1, max: 65535 },
  DATABASE_POOL_MAX: { min: 1, max: 1000 },
  DATABASE_STATEMENT_TIMEOUT_MS: { min: 100, max: 600_000 },
  KEY_CACHE_TTL_MS: { min: 0, max: 300_000 },
  RATE_LIMIT_PER_MINUTE: { min: 0, max: 10_000_000 },
  SHUTDOWN_TIMEOUT_MS: { min: 0, max: 600_000 },
  RATE_LIMIT_SYNC_MS: { min: 10, max: 10_000 },
  KEY_LAST_USED_FLUSH_MS: { min: 100, max: 3_600_000 },
  // Up to 30 days: rows are bounded by this times what keys may send (RATE_LIMIT_PER_MINUTE).
  IDEMPOTENCY_KEY_TTL_HOURS: { min: 1, max: 720 },
  // From a day (what a reader has, at least, to come back) to ten years (each event holds its Pet or Order: the table grows with it).
  EVENT_RETENTION_DAYS: { min: 1, max: 3650 },
  // From 5 s to an hour, and at least 2 × (DATABASE_STATEMENT_TIMEOUT_MS + 2 s) (config.ts, webhooks/webhook-lease.ts):
  // half of it is for a delivery to find a send slot, the other half for the attempt: reading its endpoint,
  // its timeout (at most 15 s, at least 1 s) and recording its outcome.
  WEBHOOK_LEASE_SECONDS: { min: 5, max: 3600 },
  // From 16 (8 kept for endpoints with no send in flight, 8 to share: one endpoint's most) to 4096 (a process holds 6,400 deliveries at most).
  WEBHOOK_MAX_SOCKETS: { min: 16, max: 4096 },
  // Each open stream holds a connection and a waiter of the process; each key's are capped, per process.
  EVENT_STREAMS_PER_KEY: { min: 1, max: 1000 },
} as const satisfies Partial<Record<ConfigVariable, { min: number; max: number }>>;

/** The defaults as the environment would carry them. */
export function defaultEnvironment(): Record<ConfigVariable, string> {
  return Object.fromEntries(Object.entries(CONFIG_DEFAULTS).map(([name, value]) => [name, String(value)])) as Record<ConfigVariable, string>;
}
