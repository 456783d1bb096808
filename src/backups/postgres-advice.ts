/**
 * What `backup` and `restore` say on PostgreSQL, where the server's own tools do the work: the
 * pg_dump and pg_restore lines for this DATABASE_URL's host, port, user and database, never its
 * password (the tools ask for it, or read PGPASSWORD or ~/.pgpass).
 */
export function postgresAdvice(command: 'backup' | 'restore', url: string, file: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // A URL that does not parse (a "/" left unencoded in the password) is handed to the tools whole, by name.
    return [
      `animal-store ${command} works on a SQLite store; this one is on PostgreSQL.`,
      "Use PostgreSQL's own tools instead, with the same DATABASE_URL:",
      `  take a backup:    pg_dump -Fc -d "$DATABASE_URL" -f ${file}`,
      `  restore it:       pg_restore --no-owner -d "$DATABASE_URL" ${file}   (into an empty database)`,
      EXPORT_NOTE,
    ].join('\n');
  }
  // A Unix socket is named by ?host=/path, as libpq reads it.
  const host = parsed.searchParams.get('host') ?? (decodeURIComponent(parsed.hostname) || 'localhost');
  const port = parsed.port || '5432';
  const user = decodeURIComponent(parsed.username) || process.env.USER || 'postgres';
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || user;
  const target = `-h ${host} -p ${port} -U ${user} -d ${database}`;
  return [
    `animal-store ${command} works on a SQLite store; this one is on PostgreSQL (${host}:${port}/${database}).`,
    "Use PostgreSQL's own tools instead:",
    `  take a backup:    pg_dump -Fc ${target} -f ${file}`,
    `  restore it:       pg_restore --no-owner ${target} ${file}   (into an empty database)`,
    'They ask for the password, or read it from PGPASSWORD or ~/.pgpass.',
    EXPORT_NOTE,
  ].join('\n');
}

const EXPORT_NOTE = 'A copy that moves between SQLite and PostgreSQL will be `animal-store export` and `import` (not yet released).';
