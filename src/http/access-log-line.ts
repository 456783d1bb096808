/**
 * The access log line (one per request, request-context.ts), built as text here instead of by
 * pino's generic object walk: pino's walk (a lookup of serializers and stringifiers and an escape
 * of every key, per field, plus the redaction walk of app.ts over every field) was about 11 % of
 * a cached list20's instructions, more than the rest of the completion phase. The line is byte for byte what `log.info(fields, 'request')` writes
 * with the service's logger options (test/http/access-log-line.test.ts compares the two through
 * the app's own logger): its level, time and bindings are the logger's own, taken from it.
 *
 * The client's strings (the method and the URL, which may hold a key pasted by mistake) pass
 * through redactSecrets, as app.ts's log formatter does for every string of every other line. The
 * route pattern and the key's display prefix are the service's own, which hold no key.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { redactSecrets } from '../secrets/log-redaction.js';

export interface AccessLogFields {
  method: string;
  url: string;
  /** Undefined for a path no route matches: left out, as pino leaves out undefined fields. */
  route: string | undefined;
  /** Null when the client hung up before an answer was sent. */
  statusCode: number | null;
  durationMs: number;
  keyId: number | undefined;
  keyPrefix: string | undefined;
  clientAborted: boolean;
}

const INFO = pino.levels.values.info!;
const symbols = pino.symbols;

/** What the line needs of a pino logger, read through pino's own symbols. */
interface PinoInternals {
  isLevelEnabled(level: string): boolean;
  [symbols.lsCacheSym]: Record<number, string>;
  [symbols.timeSym]: () => string;
  [symbols.chindingsSym]: string;
  [symbols.endSym]: string;
  [symbols.messageKeySym]: string;
  [symbols.streamSym]: { write(line: string): unknown; [symbols.needsMetadataGsym]?: boolean };
}

/** Writes the request's one log line at level info (nothing below it). */
export function writeAccessLine(log: FastifyBaseLogger, fields: AccessLogFields): void {
  const logger = log as unknown as PinoInternals;
  if (!logger.isLevelEnabled('info')) return;
  const stream = logger[symbols.streamSym];
  // A multistream wants the level and object of each line beside it: pino's own write gives them.
  if (stream[symbols.needsMetadataGsym] === true) {
    log.info(fieldsObject(fields), 'request');
    return;
  }
  const { route, keyId, keyPrefix } = fields;
  stream.write(
    logger[symbols.lsCacheSym][INFO]! +
      logger[symbols.timeSym]() +
      logger[symbols.chindingsSym] +
      ',"method":' +
      text(fields.method) +
      ',"url":' +
      text(fields.url) +
      (route === undefined ? '' : ',"route":' + quoted(route)) +
      ',"statusCode":' +
      String(fields.statusCode) +
      ',"durationMs":' +
      String(fields.durationMs) +
      (keyId === undefined ? '' : ',"keyId":' + String(keyId)) +
      (keyPrefix === undefined ? '' : ',"keyPrefix":' + quoted(keyPrefix)) +
      (fields.clientAborted ? ',"clientAborted":true' : '') +
      ',' +
      quoted(logger[symbols.messageKeySym]) +
      ':"request"' +
      logger[symbols.endSym],
  );
}

/** The fields as pino would be given them (undefined ones and a false clientAborted left out by the line). */
export function fieldsObject(fields: AccessLogFields): Record<string, unknown> {
  const { clientAborted, ...rest } = fields;
  return clientAborted ? { ...rest, clientAborted } : rest;
}

/** A client's string, as a JSON string with its keys redacted. */
function text(value: string): string {
  return quoted(redactSecrets(value));
}

// What JSON must escape (and lone surrogates, which JSON.stringify escapes): almost never in a URL.
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A JSON string, as pino writes it: JSON.stringify only when something needs escaping (it costs
 * several times a quote on both sides). The same text as pino's escape for any string without a
 * lone surrogate, which a URL from Node's parser (decoded as latin1) cannot hold.
 */
function quoted(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : '"' + value + '"';
}
