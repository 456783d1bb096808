import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, defaultEnvironment, loadConfig, parseByteSize } from '../src/config.js';

describe('loadConfig', () => {
  it('with an empty environment > answers the documented defaults', () => {
    assert.deepEqual(loadConfig({}), {
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/animal-store.db',
      databasePoolMax: 10,
      databaseStatementTimeoutMs: 5000,
      logLevel: 'info',
      publicBaseUrl: 'http://localhost:8080/v1',
      stagingBaseUrl: 'http://localhost:8081/v1',
      bodyLimitBytes: 65536,
      keyCacheTtlMs: 5000,
      rateLimitPerMinute: 1200,
      trustProxy: false,
      shutdownTimeoutMs: 10000,
      cursorSecret: undefined,
      corsOrigins: [],
      metricsPort: undefined,
      metricsToken: undefined,
      redisUrl: undefined,
      redisKeyPrefix: 'animal-store:',
      rateLimitSyncMs: 250,
      keyLastUsedFlushMs: 10000,
      idempotencyKeyTtlHours: 24,
      eventRetentionDays: 30,
      webhookAllowedHosts: [],
      webhookRetryScheduleSeconds: [0, 5, 300, 1800, 7200, 18000, 36000, 36000],
      webhookLeaseSeconds: 60,
      webhookMaxSockets: 256,

      eventStreamsPerKey: 5,
      consoleEnabled: true,
    });
  });

  it('REDIS_URL, REDIS_KEY_PREFIX, RATE_LIMIT_SYNC_MS, KEY_LAST_USED_FLUSH_MS > are read and checked, and a password never shown', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://:pw@cache:6379/2',
      REDIS_KEY_PREFIX: 'shop-eu:',
      RATE_LIMIT_SYNC_MS: '100',
      KEY_LAST_USED_FLUSH_MS: '5000',
    });
    assert.equal(config.redisUrl, 'redis://:pw@cache:6379/2');
    assert.equal(config.redisKeyPrefix, 'shop-eu:');
    assert.equal(config.rateLimitSyncMs, 100);
    assert.equal(config.keyLastUsedFlushMs, 5000);
    assert.equal(loadConfig({ REDIS_URL: 'rediss://cache.example:6380' }).redisUrl, 'rediss://cache.example:6380');
    assert.throws(
      () =>
        loadConfig({ REDIS_URL: 'http://user:hunter2@cache:6379', REDIS_KEY_PREFIX: 'has space', RATE_LIMIT_SYNC_MS: '0', KEY_LAST_USED_FLUSH_MS: 'often' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 4);
        for (const name of ['REDIS_URL', 'REDIS_KEY_PREFIX', 'RATE_LIMIT_SYNC_MS', 'KEY_LAST_USED_FLUSH_MS']) assert.match(error.message, new RegExp(name));
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  });

  it('IDEMPOTENCY_KEY_TTL_HOURS > outside 1 to 720 hours > stops the start naming it', () => {
    assert.equal(loadConfig({ IDEMPOTENCY_KEY_TTL_HOURS: '48' }).idempotencyKeyTtlHours, 48);
    for (const value of ['0', '721', '1.5', '24h']) {
      assert.throws(
        () => loadConfig({ IDEMPOTENCY_KEY_TTL_HOURS: value }),
        (error: ConfigError) => error.problems.some((p) => p.startsWith('IDEMPOTENCY_KEY_TTL_HOURS must be a whole number from 1 to 720')),
      );
    }
  });

  it('WEBHOOK_ALLOWED_HOSTS > names and addresses > kept in lower case, IPv6 without brackets; a scheme or port stops the start', () => {
    assert.deepEqual(loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' Hooks.Internal ,127.0.0.1,[::1]' }).webhookAllowedHosts, ['hooks.internal', '127.0.0.1', '::1']);
    for (const value of ['https://hooks.internal', 'hooks.internal:8443', 'a b', 'hooks.internal,,x']) {
      assert.throws(
        () => loadConfig({ WEBHOOK_ALLOWED_HOSTS: value }),
        (error: ConfigError) => error.problems.some((p) => p.startsWith('WEBHOOK_ALLOWED_HOSTS must be')),
        value,
      );
    }
  });

  it('WEBHOOK_RETRY_SCHEDULE > whole seconds, 1 to 20 of them, each up to a week > anything else stops the start', () => {
    assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0, 1,2' }).webhookRetryScheduleSeconds, [0, 1, 2]);
    for (const value of ['-1', '1.5', '604801', 'soon', '0,', Array(21).fill('1').join(',')]) {
      assert.throws(
        () => loadConfig({ WEBHOOK_RETRY_SCHEDULE: value }),
        (error: ConfigError) => error.problems.some((p) => p.startsWith('WEBHOOK_RETRY_SCHEDULE must be')),
        value,
      );
    }
  });

  it('EVENT_RETENTION_DAYS > outside 1 to 3650 days > stops the start naming it', () => {
    assert.equal(loadConfig({ EVENT_RETENTION_DAYS: '90' }).eventRetentionDays, 90);
    for (const value of ['0', '3651', '1.5', '30d']) {
      assert.throws(
        () => loadConfig({ EVENT_RETENTION_DAYS: value }),
        (error: ConfigError) => error.problems.some((p) => p.startsWith('EVENT_RETENTION_DAYS must be a whole number from 1 to 3650')),
      );
    }
  });

  it('Attack: WEBHOOK_LEASE_SECONDS too short for any attempt to start (2 s) > stops the start naming the minimum, 5', () => {
    assert.equal(loadConfig({ WEBHOOK_LEASE_SECONDS: '5', DATABASE_STATEMENT_TIMEOUT_MS: '500' }).webhookLeaseSeconds, 5);
    for (const value of ['2', '4', '3601']) {
      assert.throws(
        () => loadConfig({ WEBHOOK_LEASE_SECONDS: value, DATABASE_STATEMENT_TIMEOUT_MS: '500' }),
        (error: ConfigError) => error.problems.some((p) => p.startsWith('WEBHOOK_LEASE_SECONDS must be a whole number from 5 to 3600')),
        value,
      );
    }
  });

  it('Attack: WEBHOOK_LEASE_SECONDS shorter than 2 × (DATABASE_STATEMENT_TIMEOUT_MS + 1 s to send + 1 s to record) > stops the start naming the minimum', () => {
    // An attempt reads its endpoint and records its outcome, each up to the statement timeout, within its lease.
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    assert.deepEqual(problemsOf({ WEBHOOK_LEASE_SECONDS: '13' }), [
      'WEBHOOK_LEASE_SECONDS must be at least 14 with DATABASE_STATEMENT_TIMEOUT_MS=5000: twice the statement timeout, 1 s for an attempt and 1 s to record it (got 13); raise it or lower the statement timeout',
    ]);
    assert.equal(loadConfig({ WEBHOOK_LEASE_SECONDS: '14' }).webhookLeaseSeconds, 14);
    assert.match(
      problemsOf({ WEBHOOK_LEASE_SECONDS: '60', DATABASE_STATEMENT_TIMEOUT_MS: '30000' })[0] ?? '',
      /^WEBHOOK_LEASE_SECONDS must be at least 64 with DATABASE_STATEMENT_TIMEOUT_MS=30000/,
    );
    assert.equal(loadConfig({ WEBHOOK_LEASE_SECONDS: '64', DATABASE_STATEMENT_TIMEOUT_MS: '30000' }).webhookLeaseSeconds, 64);
    // A refused statement timeout is reported alone: nothing is compared with it.
    assert.deepEqual(
      problemsOf({ WEBHOOK_LEASE_SECONDS: '5', DATABASE_STATEMENT_TIMEOUT_MS: '5' }).map((p) => p.split(' ')[0]),
      ['DATABASE_STATEMENT_TIMEOUT_MS'],
    );
  });

  it('WEBHOOK_MAX_SOCKETS > outside 16 to 4096 > stops the start naming it', () => {
    assert.equal(loadConfig({ WEBHOOK_MAX_SOCKETS: '64' }).webhookMaxSockets, 64);
    for (const value of ['0', '15', '4097', '64.5', 'many']) {
      assert.throws(
        () => loadConfig({ WEBHOOK_MAX_SOCKETS: value }),
        (error: ConfigError) => error.problems.some((p) => p.startsWith('WEBHOOK_MAX_SOCKETS must be a whole number from 16 to 4096')),
        value,
      );
    }
  });

  it('EVENT_STREAMS_PER_KEY > outside 1 to 1000 > stops the start naming it', () => {
    assert.equal(loadConfig({ EVENT_STREAMS_PER_KEY: '12' }).eventStreamsPerKey, 12);
    for (const value of ['0', '1001', '2.5', 'five']) {
      assert.throws(
        () => loadConfig({ EVENT_STREAMS_PER_KEY: value }),
        (error: ConfigError) => error.problems.some((p) => p.startsWith('EVENT_STREAMS_PER_KEY must be a whole number from 1 to 1000')),
      );
    }
  });

  it('CORS_ORIGINS > reads *, or a list of exact origins', () => {
    assert.equal(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, '*');
    assert.deepEqual(loadConfig({ CORS_ORIGINS: ' https://shop.example, http://localhost:3000 ,' }).corsOrigins, [
      'https://shop.example',
      'http://localhost:3000',
    ]);
  });

  it('CORS_ORIGINS that a browser would never send > is refused with the spelling it would', () => {
    const problemOf = (value: string) => {
      try {
        loadConfig({ CORS_ORIGINS: value });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    assert.deepEqual(problemOf('https://shop.example/'), [
      'CORS_ORIGINS entry "https://shop.example/" is not an origin as browsers send it; write https://shop.example',
    ]);
    assert.deepEqual(problemOf('https://Shop.example'), [
      'CORS_ORIGINS entry "https://Shop.example" is not an origin as browsers send it; write https://shop.example',
    ]);
    assert.deepEqual(problemOf('https://shop.example:443'), [
      'CORS_ORIGINS entry "https://shop.example:443" is not an origin as browsers send it; write https://shop.example',
    ]);
    assert.deepEqual(problemOf('shop.example'), ['CORS_ORIGINS entries must be origins such as https://shop.example (got "shop.example")']);
    assert.deepEqual(problemOf('null'), ['CORS_ORIGINS entries must be origins such as https://shop.example (got "null")']);
    assert.deepEqual(problemOf('*, https://shop.example'), ['CORS_ORIGINS must be either * alone or a list of origins, not both']);
  });

  it('METRICS_PORT and METRICS_TOKEN > are read, checked, and the token never shown', () => {
    const config = loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'a-long-scrape-token' });
    assert.equal(config.metricsPort, 9464);
    assert.equal(config.metricsToken, 'a-long-scrape-token');
    assert.throws(
      () => loadConfig({ PORT: '9464', METRICS_PORT: '9464', METRICS_TOKEN: 'short-secret' }),
      (error: unknown) => {
        assert.deepEqual((error as ConfigError).problems, [
          'METRICS_PORT must differ from PORT (both are 9464); unset it to serve /metrics on the main port',
          'METRICS_TOKEN must have at least 16 printable characters without spaces (got 12 characters)',
        ]);
        assert.doesNotMatch((error as Error).message, /short-secret/);
        return true;
      },
    );
    assert.throws(() => loadConfig({ METRICS_PORT: '0' }), /METRICS_PORT must be a whole number from 1 to 65535/);
  });

  it('METRICS_PORT or PORT out of range > is the one problem told, never also a clash with the other port', () => {
    // A port refused is no port: it cannot clash (a refused METRICS_PORT read as its range's 1 told "both are 1").
    assert.throws(
      () => loadConfig({ PORT: '1', METRICS_PORT: '0' }),
      (error: unknown) => (assert.deepEqual((error as ConfigError).problems, ['METRICS_PORT must be a whole number from 1 to 65535 (got "0")']), true),
    );
    assert.throws(
      () => loadConfig({ PORT: 'http', METRICS_PORT: '8080' }),
      (error: unknown) => (assert.deepEqual((error as ConfigError).problems, ['PORT must be a whole number from 0 to 65535 (got "http")']), true),
    );
  });

  it('CURSOR_SECRET > is taken when it has 32 characters or more', () => {
    const secret = 'k'.repeat(31) + 'é';
    assert.equal(loadConfig({ CURSOR_SECRET: secret }).cursorSecret, secret);
    assert.equal(loadConfig({ CURSOR_SECRET: '  ' }).cursorSecret, undefined);
  });

  it('CURSOR_SECRET shorter than 32 characters > is refused without showing it', () => {
    const secret = 'hunter2-but-longer-0123456789ab';
    assert.throws(
      () => loadConfig({ CURSOR_SECRET: secret }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems, [
          'CURSOR_SECRET must have at least 32 characters (got 31); unset, the service keeps a secret of its own in the database',
        ]);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  });

  it('with every value set > reads each', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db/store',
      DATABASE_POOL_MAX: '20',
      LOG_LEVEL: 'debug',
      PUBLIC_BASE_URL: 'https://api.store.test/v1/',
      STAGING_BASE_URL: 'https://staging.store.test/v1',
      BODY_LIMIT: '1MiB',
      KEY_CACHE_TTL_MS: '0',
    });
    assert.equal(config.port, 0);
    assert.equal(config.databaseUrl, 'postgres://u:p@db/store');
    assert.equal(config.publicBaseUrl, 'https://api.store.test/v1');
    assert.equal(config.bodyLimitBytes, 1024 * 1024);
    assert.equal(config.keyCacheTtlMs, 0);
  });

  it('with several bad values > names every one in one error, and hides passwords', () => {
    assert.throws(
      () =>
        loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://root:secret@db/x', PUBLIC_BASE_URL: 'https://api.test/v2', BODY_LIMIT: 'lots' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 5);
        for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL', 'PUBLIC_BASE_URL', 'BODY_LIMIT']) assert.match(error.message, new RegExp(name));
        assert.doesNotMatch(error.message, /secret/);
        return true;
      },
    );
  });

  it('with PORT set and PUBLIC_BASE_URL unset > points the public URL at that port', () => {
    assert.equal(loadConfig({ PORT: '9000' }).publicBaseUrl, 'http://localhost:9000/v1');
    assert.equal(loadConfig({ PORT: '9000', PUBLIC_BASE_URL: 'https://api.store.test/v1' }).publicBaseUrl, 'https://api.store.test/v1');
  });

  it('CONSOLE_ENABLED > true or false in any case; anything else stops the start naming it', () => {
    assert.equal(loadConfig({ CONSOLE_ENABLED: 'false' }).consoleEnabled, false);
    assert.equal(loadConfig({ CONSOLE_ENABLED: 'FALSE' }).consoleEnabled, false);
    assert.equal(loadConfig({ CONSOLE_ENABLED: 'true' }).consoleEnabled, true);
    for (const value of ['no', '0', 'off']) {
      assert.throws(
        () => loadConfig({ CONSOLE_ENABLED: value }),
        (error: ConfigError) => error.problems.includes(`CONSOLE_ENABLED must be true or false (got "${value}")`),
        value,
      );
    }
  });

  it('TRUST_PROXY > reads booleans, hop counts and address lists, and refuses anything else', () => {
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy, ['10.0.0.0/8', '127.0.0.1']);
    assert.throws(() => loadConfig({ TRUST_PROXY: 'the load balancer' }), /TRUST_PROXY/);
  });

  it('HOST that is no address or name > is refused at once', () => {
    assert.throws(() => loadConfig({ HOST: 'not a host!' }), /HOST must be an IP address or a host name/);
  });

  it('with a plain file path as DATABASE_URL > accepts it as SQLite', () => {
    assert.equal(loadConfig({ DATABASE_URL: './store.db' }).databaseUrl, './store.db');
  });

  it('defaults > are all valid, and read as the defaults', () => {
    assert.deepEqual(loadConfig(defaultEnvironment()), loadConfig({}));
  });
});

describe('parseByteSize', () => {
  it('units > answer bytes', () => {
    assert.equal(parseByteSize('65536'), 65536);
    assert.equal(parseByteSize('64KiB'), 65536);
    assert.equal(parseByteSize('64kb'), 64000);
    assert.equal(parseByteSize('2MiB'), 2097152);
    assert.equal(parseByteSize('64 parsecs'), undefined);
  });
});
