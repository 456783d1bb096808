/**
 * The one reading of a database driver's error code: pg's SQLSTATE ('40001'), better-sqlite3's
 * ('SQLITE_BUSY'), Node's own ('ECONNREFUSED'). Whatever was thrown, a string code or undefined.
 */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
