/**
 * The configuration as published: `.env.example` and the documentation's configuration table
 * say what config-defaults.ts says, word for word, for every variable (the way the error table
 * is checked against errors.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONFIG_DEFAULTS, CONFIG_RANGES, CONFIG_SECRETS, CURSOR_SECRET_MIN_LENGTH, METRICS_TOKEN_MIN_LENGTH } from '../src/config.js';
import { operationBudgetMs } from '../src/db/create-db.js';
import { readRepositoryFile, tableRow } from './helpers/published-docs.js';

type Variable = keyof typeof CONFIG_DEFAULTS;
const VARIABLES = Object.keys(CONFIG_DEFAULTS) as Variable[];
/** Variables whose default follows another one: PUBLIC_BASE_URL follows PORT. */
const DERIVED: Partial<Record<Variable, string>> = { PUBLIC_BASE_URL: 'http://localhost:PORT/v1' };

/** `.env.example`'s assignments: `NAME=value`, and `# NAME=value` for those left unset. */
function envExampleAssignments() {
  return readRepositoryFile('.env.example')
    .split('\n')
    .flatMap((line) => {
      const match = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      return match ? [{ commented: match[1] !== undefined, name: match[2]!, value: match[3]!, line }] : [];
    });
}

describe('.env.example', () => {
  it('every variable with a default > is set to it, word for word, once', () => {
    const assignments = envExampleAssignments();
    for (const name of VARIABLES) {
      const set = assignments.filter((a) => a.name === name && !a.commented);
      if (String(CONFIG_DEFAULTS[name]) === '' || DERIVED[name] !== undefined) {
        assert.deepEqual(set, [], `${name} has no fixed default, so .env.example leaves it unset`);
        assert.ok(
          assignments.some((a) => a.name === name && a.commented),
          `.env.example shows # ${name}=…`,
        );
      } else {
        assert.deepEqual(
          set.map((a) => a.line),
          [`${name}=${String(CONFIG_DEFAULTS[name])}`],
          name,
        );
      }
    }
  });

  it('every variable it names > is one the service reads, and the secrets stay unset', () => {
    const known = new Set<string>([...VARIABLES, ...CONFIG_SECRETS]);
    for (const { name, commented } of envExampleAssignments()) {
      assert.ok(known.has(name), `.env.example names ${name}, which the service does not read`);
      if ((CONFIG_SECRETS as readonly string[]).includes(name)) assert.ok(commented, `${name} is a secret: shown unset`);
    }
    for (const name of CONFIG_SECRETS)
      assert.ok(
        envExampleAssignments().some((a) => a.name === name),
        `.env.example shows ${name}`,
      );
  });

  it('the limits and derived values it quotes > are the ones the service applies', () => {
    const text = readRepositoryFile('.env.example').replace(/\s*\n#\s*/g, ' ');
    const { IDEMPOTENCY_KEY_TTL_HOURS: ttl } = CONFIG_RANGES;
    assert.ok(text.includes(`(whole hours, ${ttl.min} to ${ttl.max})`), 'IDEMPOTENCY_KEY_TTL_HOURS range');
    assert.ok(text.includes(`at least ${CURSOR_SECRET_MIN_LENGTH} characters`), 'CURSOR_SECRET length');
    assert.ok(text.includes(`METRICS_TOKEN (${METRICS_TOKEN_MIN_LENGTH}+ characters)`), 'METRICS_TOKEN length');
    assert.ok(text.includes(`waits at most this plus ${operationBudgetMs(0)} ms`), 'the PostgreSQL operation budget');
    assert.ok(text.includes(`Unset, PUBLIC_BASE_URL is ${DERIVED.PUBLIC_BASE_URL}.`), 'PUBLIC_BASE_URL follows PORT');
  });
});

describe('the documentation > configuration table', () => {
  it('every variable > has a row with its default, word for word', () => {
    for (const name of VARIABLES) {
      const row = tableRow(`\`${name}\``);
      assert.ok(row, `the documentation has a row for ${name}`);
      const shown = DERIVED[name] ?? String(CONFIG_DEFAULTS[name]);
      const expected = shown === '' ? `| \`${name}\` | unset |` : `| \`${name}\` | \`${shown}\` |`;
      assert.ok(row.startsWith(expected), `${row}\nshould start with ${expected}`);
    }
    for (const name of CONFIG_SECRETS) assert.ok(tableRow(`\`${name}\``)?.startsWith(`| \`${name}\` | unset |`), name);
  });

  it('a range quoted in a row > is the range the service accepts', () => {
    let quoted = 0;
    for (const [name, { min, max }] of Object.entries(CONFIG_RANGES)) {
      const row = tableRow(`\`${name}\``)!;
      for (const [, from, to] of row.matchAll(/\b(\d+) to (\d+)\b/g)) {
        quoted++;
        assert.deepEqual([Number(from), Number(to)], [min, max], `${name}: ${row}`);
      }
    }
    assert.ok(quoted >= 2, 'the table quotes the ranges of RATE_LIMIT_SYNC_MS and IDEMPOTENCY_KEY_TTL_HOURS at least');
    assert.ok(tableRow('`CURSOR_SECRET`')!.includes(`at least ${CURSOR_SECRET_MIN_LENGTH} characters`));
    assert.ok(tableRow('`METRICS_TOKEN`')!.includes(`(${METRICS_TOKEN_MIN_LENGTH} or more printable characters)`));
  });
});
