/**
 * The link to Redis, which a fleet of instances shares (rate-limit counts, key revocations).
 *
 * ioredis rather than node-redis: it has a per-command timeout (`commandTimeout`), fails a
 * command at once while disconnected (`enableOfflineQueue: false`) instead of queueing it, keeps
 * reconnecting on its own and re-subscribes its channels after a reconnect. Those four make the
 * promise below cheap to keep: Redis is never on a request's path, a Redis that is down or slow
 * costs a failed sync, not a stalled request, and sharing resumes by itself when it returns.
 *
 * Nothing here is needed to serve: when Redis is gone, every user falls back to what this
 * process knows, and `/readyz` does not look at Redis.
 */
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** A command that takes longer than this fails, and the caller carries on with local knowledge. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface RedisLink {
  /** Commands: fail fast (timeout, or at once while disconnected). */
  commands: Redis;
  /** Settles when the first connection attempt has succeeded or failed, so a sync does not fail merely for starting early. */
  firstAttempt: Promise<void>;
  /** Names every key and channel, so several deployments (or tests) can share one Redis. */
  keyPrefix: string;
  /** Subscribes to a channel (on a connection of its own, as Redis requires). */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<void>;
  /** Reports the outcome of a shared operation; logs once when sharing stops and once when it resumes. */
  report(ok: boolean, error?: unknown): void;
  close(): Promise<void>;
}

export function connectRedis(url: string, options: { keyPrefix: string; log: FastifyBaseLogger }): RedisLink {
  const { log, keyPrefix } = options;
  const connection = () =>
    new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 1000,
      maxRetriesPerRequest: 0,
      // Keep trying, at most once a second, for as long as the process runs.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    });
  const commands = connection();
  let subscriber: Redis | undefined;
  let shared = true;
  // ioredis reports every failed reconnection attempt; the report() below speaks for them.
  commands.on('error', () => {});
  const firstAttempt = new Promise<void>((resolve) => {
    commands.once('ready', resolve);
    commands.once('error', resolve);
    commands.once('close', resolve);
  });

  const report = (ok: boolean, error?: unknown) => {
    if (ok === shared) return;
    shared = ok;
    if (ok) log.info('Redis answers again: rate limits are shared across the fleet again');
    else log.warn({ err: error }, 'Redis does not answer: rate limits are counted by this process alone until it returns');
  };

  return {
    commands,
    firstAttempt,
    keyPrefix,
    async subscribe(channel, onMessage) {
      if (!subscriber) {
        // A subscriber may queue its SUBSCRIBE until connected: it must reach Redis whenever it returns.
        subscriber = new Redis(url, { connectTimeout: 1000, retryStrategy: (attempt) => Math.min(attempt * 100, 1000) });
        subscriber.on('error', () => {});
      }
      // One listener per channel subscribed (the key revocations', the events feed's), each hearing its own.
      subscriber.on('message', (_channel: string, message: string) => {
        if (_channel === `${keyPrefix}${channel}`) onMessage(message);
      });
      await subscriber.subscribe(`${keyPrefix}${channel}`);
    },
    report,
    async close() {
      commands.disconnect();
      subscriber?.disconnect();
    },
  };
}
