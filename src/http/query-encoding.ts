/**
 * Query strings whose percent-encoding is not valid UTF-8 (`%FF`, `%E2%82`, a lone `%`, `%zz`).
 * Fastify's parser keeps such a piece as its raw text, so `?name=%FF` searched for the three
 * characters `%FF`, exactly as `?name=%25FF` does: the client's bytes silently became other text.
 * They are refused instead, in the /v1 scope after authentication, naming the parameter.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { MAX_NAME_SHOWN } from './validation.js';

/** The name (as best it can be read) of the first query parameter that is not valid percent-encoded UTF-8, if any. */
export function malformedQueryParameter(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  // One pass over the pieces; `+` is a space in a query and never malformed, so it is left as is.
  for (const piece of url.slice(start + 1).split('&')) {
    if (!piece.includes('%') || decodes(piece)) continue;
    const rawName = piece.split('=', 1)[0]!;
    const name = decodes(rawName) ? decodeURIComponent(rawName) : rawName;
    return name.length > MAX_NAME_SHOWN ? `${name.slice(0, MAX_NAME_SHOWN)}…` : name;
  }
  return undefined;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** Refuses such requests with 400 `validation_failed`; preValidation runs after the admit phase (access/access-control.ts), so a request without a key still gets 401 first. */
export function registerQueryEncodingCheck(scope: FastifyInstance): void {
  // Written with `done` (never waits): Fastify passes a throw to the error handler as for an async hook.
  scope.addHook('preValidation', (request, _reply, done) => {
    const name = malformedQueryParameter(request.url);
    if (name === undefined) return done();
    const message = `query.${name} is not valid percent-encoded UTF-8; encode the text as UTF-8 and percent-encode each byte (a % itself as %25)`;
    throw new AppError('validation_failed', message, [{ field: `query.${name}`, message }]);
  });
}
