#!/usr/bin/env node
/**
 * The `animal-store` command: serve (the default), migrate, keys create | list | revoke, pets import,
 * export, import, backup, restore, help and version. Exit codes: 0 done, 1 failed, 2 wrong usage (and
 * backup or restore on PostgreSQL, whose own tools do that).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { CONFIG_DEFAULTS, ConfigError, loadConfig, type Config } from './config.js';
import type { Kysely } from 'kysely';
import { withDb } from './db/create-db.js';
import { hintForDatabaseError } from './db/hints.js';
import type { Database } from './db/database.js';
import { migrateStore } from './db/migrate.js';
import { backupCommand } from './backups/backup-command.js';
import { publishRevocation } from './keys/key-revocations.js';
import { issueApiKey, KEY_NAME_MAX_LENGTH, listKeys, parseDuration, revokeKey } from './keys/keys.service.js';
import { isScope, SCOPES } from './keys/scopes.js';
import { importFormatOf } from './pets/pets.import-format.js';
import { dropOutputToClosedPipes } from './log-destination.js';
import { exportCommand, importCommand } from './transfer/transfer.command.js';

/** Each command's usage lines, in the order the full help lists them; `animal-store COMMAND --help` shows its own. */
const COMMAND_USAGE: Record<string, string> = {
  serve: `  animal-store [serve] [--no-bootstrap-key] [--workers N]
                                                start the HTTP service (runs migrations first);
                                                --workers N serves from N processes (0: one per core);
                                                --no-bootstrap-key: make no first key in an empty store`,
  migrate: `  animal-store migrate                          apply database migrations and exit`,
  'keys create': `  animal-store keys create --name NAME [--expires-in 30d] [--scope SCOPE]...
                                                make an API key; the key alone is printed on stdout;
                                                --scope (repeatable) limits it to ${SCOPES.join(', ')}
                                                (without --scope: all of them)`,
  'keys list': `  animal-store keys list [--json]               list keys (never their secrets)`,
  'keys revoke': `  animal-store keys revoke ID                   revoke a key; every instance refuses it within
                                                a second with REDIS_URL, else within
                                                KEY_CACHE_TTL_MS (5 s by default)`,
  'pets import': `  animal-store pets import FILE.csv|FILE.ndjson   add every pet of the file, or none when any line
                                                is bad (each told on stderr as line N: field: message);
                                                CSV header: name,categoryId,status (status optional)`,
  export: `  animal-store export [--output FILE] [--force]  write the whole store as NDJSON (stdout by default;
                                                FILE made with mode 0600, --force replaces one);
                                                it holds the webhook secrets and the cursor key`,
  import: `  animal-store import FILE                      load an export (FILE, or - for stdin) into a migrated,
                                                empty store, in one transaction; refused while a
                                                service serves the store (stop it first)`,
  backup: `  animal-store backup FILE [--force]            SQLite: copy the store to FILE (mode 0600) while the
                                                service serves and writes; FILE must not exist
                                                (--force: replace it). PostgreSQL: names pg_dump`,
  restore: `  animal-store restore FILE                     SQLite: put the backup FILE in place of an empty or
                                                absent store; stop the service first.
                                                PostgreSQL: names pg_restore`,
};

const ENVIRONMENT = `Configuration comes from environment variables, not options: PORT=9000 animal-store serve
(HOST, DATABASE_URL, LOG_LEVEL, ...); see docs/operations.md.`;

const USAGE = `Usage:
${Object.values(COMMAND_USAGE).join('\n')}
  animal-store help [COMMAND]                   show this help, or one command's (also --help, -h)
  animal-store --version                        show the version (also -v, version)

${ENVIRONMENT}`;

/** The command the first words name (`keys create`, `keys`, `serve`), if any. */
function commandNamed(words: readonly string[]): string | undefined {
  const two = words.slice(0, 2).join(' ');
  return two in COMMAND_USAGE ? two : words[0];
}

/** The help of one command (`keys` alone: its three), or the whole usage for any other name. */
function usageOf(command: string | undefined): string {
  const lines = Object.entries(COMMAND_USAGE).filter(([name]) => command !== undefined && (name === command || name.startsWith(`${command} `)));
  return lines.length === 0 ? USAGE : `Usage:\n${lines.map(([, text]) => text).join('\n')}\n\n${ENVIRONMENT}`;
}

class UsageError extends Error {
  /** The command the mistake was made in: its own help follows the message. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** Which options each command takes; any other is a usage error rather than silently ignored. */
const OPTIONS_OF: Record<string, string[]> = {
  serve: ['no-bootstrap-key', 'workers'],
  migrate: [],
  'keys create': ['name', 'expires-in', 'scope'],
  'keys list': ['json'],
  'keys revoke': [],
  'pets import': [],
  export: ['output', 'force'],
  import: [],
  backup: ['force'],
  restore: [],
};

/** The commands that take one argument (an id, a file). */
const ONE_ARGUMENT = ['keys revoke', 'pets import', 'import', 'backup', 'restore'];

const OPTIONS = {
  'no-bootstrap-key': { type: 'boolean', default: false },
  workers: { type: 'string', default: '1' },
  name: { type: 'string' },
  'expires-in': { type: 'string' },
  scope: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  output: { type: 'string' },
  force: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeValues(argv), allowPositionals: true, strict: true, tokens: true, options: OPTIONS });
  } catch (error) {
    throw usageErrorOf(error, argv);
  }
  const { values, positionals, tokens } = parsed;
  // `help keys create`, `keys create --help`, `keys help`: the help of what is named, alone.
  const helpAsked = values.help || positionals.includes('help');
  if (helpAsked) {
    process.stdout.write(`${usageOf(commandNamed(positionals.filter((word) => word !== 'help')))}\n`);
    return;
  }
  if (values.version || positionals[0] === 'version') {
    process.stdout.write(`animal-store ${packageVersion()}\n`);
    return;
  }
  const [command = 'serve', sub, ...rest] = positionals;
  if (!['serve', 'migrate', 'keys', 'pets', 'export', 'import', 'backup', 'restore'].includes(command))
    throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const commandName = (command === 'keys' || command === 'pets') && sub ? `${command} ${sub}` : command;
  const extra = positionals.slice(commandName.split(' ').length + (ONE_ARGUMENT.includes(commandName) ? 1 : 0));
  if (extra.length > 0 && commandName in OPTIONS_OF) throw new UsageError(`${commandName} takes no argument ${JSON.stringify(extra[0])}`, commandName);
  const allowed = OPTIONS_OF[commandName] ?? [];
  for (const token of tokens) {
    if (token.kind === 'option' && !allowed.includes(token.name)) {
      const takes = allowed.length === 0 ? 'it takes no option' : `it takes ${allowed.map((name) => `--${name}`).join(', ')}`;
      throw new UsageError(`${commandName} does not take --${token.name} (${takes})`, commandName);
    }
  }
  const config = loadConfig();

  switch (command) {
    case 'serve': {
      // Loaded only here, so the key and migrate commands do not load the whole web stack.
      const { serve } = await import('./server.js');
      return serve(config, { bootstrapKey: !values['no-bootstrap-key'], workers: parseWorkers(values.workers) });
    }
    case 'migrate': {
      const applied = await migrateStore(config.databaseUrl, config.databaseStatementTimeoutMs);
      process.stderr.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Already up to date.\n');
      return;
    }
    case 'keys':
      return keys(config, sub, rest, values);
    case 'pets': {
      if (sub !== 'import')
        throw new UsageError(sub === undefined ? 'pets needs a subcommand: import' : `unknown pets subcommand ${JSON.stringify(sub)}`, 'pets');
      const file = rest[0];
      if (file === undefined) throw new UsageError('pets import needs the FILE to read (.csv or .ndjson)', 'pets import');
      if (importFormatOf(file) === undefined) throw new UsageError(`pets import reads .csv or .ndjson files (got ${JSON.stringify(file)})`, 'pets import');
      const { runPetsImport } = await import('./pets/pets.import-command.js');
      process.exitCode = await onDatabaseAnswer(config, (db) => runPetsImport(db, file, process.stderr));
      return;
    }
    case 'export':
      return exportCommand(config, { output: values.output, force: values.force });
    case 'import':
      if (sub === undefined) throw new UsageError('import needs the FILE to load (- for stdin)', 'import');
      return importCommand(config, sub);
    case 'backup':
    case 'restore': {
      if (sub === undefined) throw new UsageError(`${command} needs the FILE ${command === 'backup' ? 'to write' : 'to restore from'}`, command);
      process.exitCode = backupCommand(command, config, sub, { force: values.force });
      return;
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

function parseWorkers(text: string): number {
  if (!/^\d{1,3}$/.test(text) || Number(text) > 256)
    throw new UsageError(`--workers takes a whole number from 0 to 256, 0 for one per core (got ${text})`, 'serve');
  // 0 means one per core: the cores this process may use, not all the machine has.
  return Number(text) === 0 ? availableParallelism() : Number(text);
}

async function keys(
  config: Config,
  sub: string | undefined,
  rest: string[],
  values: { name?: string; 'expires-in'?: string; scope?: string[]; json?: boolean },
) {
  switch (sub) {
    case 'create': {
      if (!values.name || values.name.trim() === '') throw new UsageError('keys create needs --name NAME', 'keys create');
      if (values.name.trim().length > KEY_NAME_MAX_LENGTH) throw new UsageError(`--name must have at most ${KEY_NAME_MAX_LENGTH} characters`, 'keys create');
      const expiresIn = values['expires-in'];
      const expiresInMs = expiresIn === undefined ? undefined : parseDuration(expiresIn);
      if (expiresIn !== undefined && expiresInMs === undefined)
        throw new UsageError(`--expires-in must look like 90s, 15m, 12h or 30d (got ${expiresIn})`, 'keys create');
      const unknownScope = values.scope?.find((scope) => !isScope(scope));
      if (unknownScope !== undefined)
        throw new UsageError(`--scope ${JSON.stringify(unknownScope)} is no scope; the scopes are ${SCOPES.join(', ')}`, 'keys create');
      const scopes = values.scope?.filter(isScope);
      return onDatabase(config, async (db) => {
        const issued = await issueApiKey(db, { name: values.name!, expiresInMs, scopes });
        const expires = issued.expiresAt ? `expires ${issued.expiresAt.toISOString()}` : 'never expires';
        const granted = scopes === undefined ? `all scopes: ${issued.scopes.join(', ')}; limit a key with --scope` : `scopes: ${issued.scopes.join(', ')}`;
        process.stderr.write(`Created key ${issued.id} "${issued.name}" (${issued.prefix}…, ${expires}, ${granted}). Store it now: it is not shown again.\n`);
        process.stdout.write(`${issued.key}\n`);
      });
    }
    case 'list':
      return onDatabase(config, async (db) => {
        const all = await listKeys(db);
        if (values.json) {
          process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
          return;
        }
        process.stdout.write(
          [
            'ID\tPREFIX\tNAME\tSCOPES\tCREATED\tEXPIRES\tREVOKED\tLAST USED',
            ...all.map((k) =>
              [
                k.id,
                `${k.prefix}…`,
                k.name,
                k.scopes.join(',') || '-',
                k.createdAt.toISOString(),
                k.expiresAt?.toISOString() ?? '-',
                k.revokedAt?.toISOString() ?? '-',
                k.lastUsedAt?.toISOString() ?? '-',
              ].join('\t'),
            ),
          ].join('\n') + '\n',
        );
      });
    case 'revoke': {
      const id = rest[0];
      if (id === undefined || !/^\d+$/.test(id) || !Number.isSafeInteger(Number(id)))
        throw new UsageError('keys revoke needs the numeric ID shown by keys list', 'keys revoke');
      return onDatabase(config, async (db) => {
        const at = new Date();
        const revoked = await revokeKey(db, Number(id), () => at.getTime());
        if (!revoked) throw new Error(`no key has id ${id}`);
        const what = `key ${revoked.id} "${revoked.name}" (${revoked.prefix}…)`;
        if (revoked.revokedAt?.getTime() !== at.getTime()) {
          process.stderr.write(`${what} was already revoked at ${revoked.revokedAt?.toISOString()}; nothing changed.\n`);
          return;
        }
        process.stderr.write(`Revoked ${what}. ${await announceRevocation(config, revoked.id)}\n`);
      });
    }
    default:
      throw new UsageError(sub === undefined ? 'keys needs a subcommand: create, list or revoke' : `unknown keys subcommand ${JSON.stringify(sub)}`, 'keys');
  }
}

/** The version of the package this command belongs to (package.json is beside src/ and dist/). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

type StringOption = { [K in keyof typeof OPTIONS]: (typeof OPTIONS)[K]['type'] extends 'string' ? K : never }[keyof typeof OPTIONS];
const STRING_OPTIONS = Object.keys(OPTIONS).filter((name) => OPTIONS[name as keyof typeof OPTIONS].type === 'string') as StringOption[];

/**
 * `--workers -1` as `--workers=-1`: Node's parser calls a value that starts with a dash
 * "ambiguous", so the value never reached the check that says what the option takes.
 */
function joinNegativeValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.startsWith('--') ? argv[i]!.slice(2) : undefined;
    const next = argv[i + 1];
    if (name !== undefined && (STRING_OPTIONS as string[]).includes(name) && next !== undefined && /^-[\d.]/.test(next)) {
      joined.push(`--${name}=${next}`);
      i++;
    } else joined.push(argv[i]!);
  }
  return joined;
}

/** Node's parser errors, said in the command's own words (they quote the parser's internals). */
function usageErrorOf(error: unknown, argv: string[]): unknown {
  const code = (error as { code?: string }).code;
  const option = /'(-{1,2}[^' ]+)/.exec((error as Error).message)?.[1];
  if (!code?.startsWith('ERR_PARSE_ARGS') || option === undefined) return error;
  const name = option.replace(/^-+/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const variable = name.toUpperCase().replaceAll('-', '_');
    if (!(variable in CONFIG_DEFAULTS)) {
      // The command typed, if any: its own options are named.
      const command = commandNamed(argv.filter((word) => !word.startsWith('-')).slice(0, 2)) ?? 'serve';
      const takes = OPTIONS_OF[command];
      if (takes === undefined) return new UsageError(`there is no option ${option}`);
      return new UsageError(
        `there is no option ${option} (${command} takes ${takes.length === 0 ? 'no option' : takes.map((taken) => `--${taken}`).join(', ')})`,
        command,
      );
    }
    // The value the operator meant, if given (`--port 9000` or `--port=9000`).
    const at = argv.findIndex((arg) => arg === option || arg.startsWith(`${option}=`));
    const given = argv[at];
    const next = argv[at + 1];
    const value = given?.includes('=') ? given.slice(given.indexOf('=') + 1) : next !== undefined && !next.startsWith('-') ? next : '…';
    return new UsageError(`there is no option ${option}; the service takes its settings from the environment: ${variable}=${value} animal-store serve`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (OPTIONS[name as keyof typeof OPTIONS]?.type === 'boolean') return new UsageError(`${option} takes no value`);
    const needs = `${option} needs a value: ${option} ${name === 'workers' ? 'N' : name.toUpperCase().replaceAll('-', '_')}`;
    // "Ambiguous": the value given starts with a dash, so it looked like another option.
    return new UsageError(/ambiguous/.test((error as Error).message) ? `${needs} (a value that starts with - is written ${option}=-…)` : needs);
  }
  return new UsageError((error as Error).message);
}

/** Tells the fleet through Redis, when there is one; answers how soon every instance refuses the key. */
async function announceRevocation(config: Config, keyId: number): Promise<string> {
  const ttl = `within KEY_CACHE_TTL_MS (${config.keyCacheTtlMs} ms)`;
  if (!config.redisUrl) return `Every instance refuses it ${ttl}.`;
  try {
    const heard = await publishRevocation(config.redisUrl, config.redisKeyPrefix, keyId);
    return `${heard} instance(s) subscribed through Redis refuse it now; any other ${ttl}.`;
  } catch (error) {
    return `Redis did not take the announcement (${(error as Error).message}); every instance refuses it ${ttl}.`;
  }
}

/** Runs a command's work on the configured database and answers what it answers. */
async function onDatabaseAnswer<T>(config: Config, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  let answer: T | undefined;
  await onDatabase(config, async (db) => {
    answer = await work(db);
  });
  return answer!;
}

/** Runs a command's work on the configured database. */
async function onDatabase(config: Config, work: (db: Kysely<Database>) => Promise<void>): Promise<void> {
  // A store the service never started on is migrated first.
  await migrateStore(config.databaseUrl, config.databaseStatementTimeoutMs);
  return withDb(config.databaseUrl, config.databaseStatementTimeoutMs, work);
}

dropOutputToClosedPipes();
main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`animal-store: ${(error as Error).message}\n\n${usageOf(error instanceof UsageError ? error.command : undefined)}\n`);
    process.exit(2);
  }
  const databaseHint = hintForDatabaseError(error, process.env.DATABASE_URL?.trim() ?? '');
  const hint =
    (error as { code?: string }).code === 'EADDRINUSE'
      ? '\nAnother process uses this port: stop it, or start with PORT set to a free port.'
      : databaseHint
        ? `\n${databaseHint}`
        : '';
  process.stderr.write(`animal-store: ${error instanceof ConfigError ? error.message : (error as Error).message}${hint}\n`);
  process.exit(1);
});
