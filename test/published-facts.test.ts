/**
 * Facts the documentation quotes (README.md and docs/*.md) and prose the code cannot derive,
 * checked against the constants that drive the behaviour: each fact must be quoted at least
 * once, and every quote of it must agree. The OpenAPI document is generated from the same
 * constants and kept in step by `npm run openapi:check`.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { REQUEST_TIMEOUT_MS } from '../src/app.js';
import { CONFIG_DEFAULTS, parseByteSize } from '../src/config.js';
import { ERROR_CODES } from '../src/errors.js';
import { SEQUENCE_EVERY_MS, WRITE_WAIT_MS } from '../src/events/events.sequencer.js';
import { MAX_NESTING } from '../src/http/json-body.js';
import { requestIdOf } from '../src/http/request-context.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../src/idempotency/idempotency-key.js';
import { MAX_KEY_ID_LABELS } from '../src/metrics/metrics.js';
import { PAGE_SIZE } from '../src/pagination/page-size.js';
import { REDIS_COMMAND_TIMEOUT_MS } from '../src/redis/redis-link.js';
import { GET_PET_DEPRECATED_DAY, GET_PET_DEPRECATION_HEADERS, GET_PET_SUNSET_DAY } from '../src/pets/get-pet-deprecation.js';
import { MAX_IDS_PER_LISTING, NAME_MAX_LENGTH } from '../src/pets/pets.schemas.js';
import { quotesOf, readRepositoryFile } from './helpers/published-docs.js';

/** Every quote `pattern` finds answers `expected` (its captures, joined by a space); at least one exists. */
function assertQuoted(pattern: RegExp, expected: string | number) {
  const quotes = quotesOf(pattern);
  assert.ok(quotes.length > 0, `the documentation quotes ${pattern}`);
  for (const { path, match } of quotes) assert.equal(match.slice(1).join(' '), String(expected), `${path}: "${match[0]}"`);
}

describe('published facts > the deprecation of getPet', () => {
  it('the documentation > names the sunset day, and the header values every answer carries', () => {
    assertQuoted(/removed on (\d{1,2} [A-Z][a-z]+ \d{4})/, GET_PET_SUNSET_DAY);
    assertQuoted(/`Sunset: ([^`]+)`/, GET_PET_DEPRECATION_HEADERS.Sunset);
    assertQuoted(/`Deprecation: ([^`]+)`/, GET_PET_DEPRECATION_HEADERS.Deprecation);
    assertQuoted(/`Deprecation: @\d+` \((\d{4}-\d\d-\d\d)/, GET_PET_DEPRECATED_DAY);
  });

  it('the header values > are the RFC forms of the two dates', () => {
    assert.equal(GET_PET_DEPRECATION_HEADERS.Sunset, 'Thu, 05 Dec 2030 00:00:00 GMT');
    assert.equal(GET_PET_SUNSET_DAY, '5 December 2030');
    assert.equal(GET_PET_DEPRECATION_HEADERS.Deprecation, `@${Date.parse(`${GET_PET_DEPRECATED_DAY}T00:00:00Z`) / 1000}`);
  });
});

describe('published facts > limits', () => {
  it('page sizes > are PAGE_SIZE wherever a listing is described', () => {
    assertQuoted(/`?limit`? \(?(\d+)\.\.(\d+),? \(?default (\d+)\)?/, `${PAGE_SIZE.min} ${PAGE_SIZE.max} ${PAGE_SIZE.default}`);
    assertQuoted(/repeat `id` \(up to (\d+)\)/, MAX_IDS_PER_LISTING);
    assertQuoted(/`id` \(repeatable, at most (\d+)/, MAX_IDS_PER_LISTING);
  });

  it('names, bodies, nesting, idempotency keys and request timeout > are the limits the service applies', () => {
    assertQuoted(/Limits of `name` \| 1 to (\d+) characters/, NAME_MAX_LENGTH);
    assertQuoted(/Bodies up to (\d+) KiB \(`BODY_LIMIT`\)/, parseByteSize(CONFIG_DEFAULTS.BODY_LIMIT)! / 1024);
    assertQuoted(/more than (\d+) levels deep/, MAX_NESTING);
    assertQuoted(/1 to (\d+) visible ASCII characters/, MAX_IDEMPOTENCY_KEY_LENGTH);
    assertQuoted(/a bare token, or more than (\d+) characters/, MAX_IDEMPOTENCY_KEY_LENGTH);
    assertQuoted(/labels at most (\d+) (?:distinct )?key ids/, MAX_KEY_ID_LABELS);
    assertQuoted(/did not arrive completely within (\d+) seconds/, REQUEST_TIMEOUT_MS / 1000);
    assertQuoted(/A client has (\d+) seconds to send a whole request/, REQUEST_TIMEOUT_MS / 1000);
  });

  it('the defaults the prose quotes > are the configured defaults', () => {
    assertQuoted(/(\d+) requests per minute per API key \(`RATE_LIMIT_PER_MINUTE`/, CONFIG_DEFAULTS.RATE_LIMIT_PER_MINUTE);
    assertQuoted(/`IDEMPOTENCY_KEY_TTL_HOURS` \((\d+) h\)/, CONFIG_DEFAULTS.IDEMPOTENCY_KEY_TTL_HOURS);
    assertQuoted(/`SHUTDOWN_TIMEOUT_MS` \((\d+) s by default\)/, CONFIG_DEFAULTS.SHUTDOWN_TIMEOUT_MS / 1000);
    assertQuoted(/`KEY_CACHE_TTL_MS` \(default (\d+) ms\)/, CONFIG_DEFAULTS.KEY_CACHE_TTL_MS);
    assertQuoted(/the defaults \(S = (\d+) ms, T = (\d+) ms\)/, `${CONFIG_DEFAULTS.RATE_LIMIT_SYNC_MS} ${REDIS_COMMAND_TIMEOUT_MS}`);
    assertQuoted(/its timeout \(T = (\d+) ms\)/, REDIS_COMMAND_TIMEOUT_MS);
  });

  it("the events sequencer > its look for others' events and the write wait are the ones it applies", () => {
    assertQuoted(/and every (\d+) ms when one statement/, SEQUENCE_EVERY_MS);
    assertQuoted(/when its look every (\d+) ms/, SEQUENCE_EVERY_MS);
    assertQuoted(/may have read before it\), ([\d.]+) s at most/, WRITE_WAIT_MS / 1000);
    assertQuoted(/or after ([\d.]+) s if the round takes longer/, WRITE_WAIT_MS / 1000);
    assertQuoted(/feed positions \(([\d.]+) s at most\)/, WRITE_WAIT_MS / 1000);
  });

  it('the longest X-Request-Id quoted > is the longest kept: one more character gets a new id', () => {
    const quoted = [
      ...quotesOf(/`\._:-`, at most (\d+)\)/).map(({ match }) => Number(match[1])),
      ...[...readRepositoryFile('openapi.json').matchAll(/`\._:-`, up to (\d+)\)/g)].map((match) => Number(match[1])),
    ];
    assert.ok(quoted.length >= 2, 'the documentation and openapi.json both quote it');
    const idOf = (id: string) => requestIdOf({ headers: { 'x-request-id': id } } as unknown as IncomingMessage);
    for (const longest of quoted) {
      assert.equal(idOf('r'.repeat(longest)), 'r'.repeat(longest), `${longest} characters are kept`);
      assert.notEqual(idOf('r'.repeat(longest + 1)), 'r'.repeat(longest + 1), `${longest + 1} are not`);
    }
  });

  it('openapi.json prose written by hand > quotes the default body limit', () => {
    // createPet's description says it in words; generated from the routes, so checked here.
    const document = readRepositoryFile('openapi.json');
    const quotes = [...document.matchAll(/the configured size \((\d+) KiB by default\)/g)];
    assert.ok(quotes.length > 0, 'openapi.json quotes the default body limit');
    for (const [, kib] of quotes) assert.equal(Number(kib), parseByteSize(CONFIG_DEFAULTS.BODY_LIMIT)! / 1024);
  });

  it('the error list > quotes the nesting limit the JSON parser applies', () => {
    // errors.ts cannot import json-body.ts (which throws its errors): checked here instead.
    assert.ok(ERROR_CODES.malformed_json.description.includes(`more than ${MAX_NESTING} levels deep`));
  });
});

describe('published facts > text that no longer holds', () => {
  it("the key-prefix check, replaced by the usable keys' hashes > is described nowhere", () => {
    // keys/usable-keys.ts: tokens are matched by their hash; display prefixes are never looked up.
    const stale = /re-reads? the key prefixes|whose prefix no usable key has/;
    assert.deepEqual(
      quotesOf(stale).map(({ path, match }) => `${path}: ${match[0]}`),
      [],
    );
    assert.doesNotMatch(readRepositoryFile('openapi.json'), stale);
  });
});
