/**
 * `animal-store pets import FILE`: reading a CSV (RFC 4180) or NDJSON file of pets, checking every
 * line with the API's own schema and messages, and adding them all in one transaction. The parsing
 * is pure (CsvParser, csvCandidates, checkPet); only importPetsFile touches the database.
 */
import { createReadStream } from 'node:fs';
import type { Kysely } from 'kysely';
import type { ValidateFunction } from 'ajv';
import { boundedLines, LineRefused } from '../bounded-lines.js';
import type { Database } from '../db/database.js';
import { writeTransaction } from '../db/dialect.js';
import { numberWaitingEvents } from '../events/events.sequencer.js';
import { createValidatorCompiler, describeValidationErrors } from '../http/validation.js';
import { parseExactJson } from '../http/json-body.js';
import { petNameKey } from './pet-name-key.js';
import { type ImportFormat } from './pets.import-format.js';
import { DEFAULT_PET_STATUS, type NewPet, NewPetSchema } from './pets.schemas.js';

/** A field longer than this is refused while reading: no pet field comes near it, and it bounds memory. */
export const MAX_FIELD_LENGTH = 64 * 1024;
/** The columns a CSV header may name; `name` and `categoryId` are required. */
const IMPORT_COLUMNS = ['name', 'categoryId', 'status'] as const;
const REQUIRED_COLUMNS = ['name', 'categoryId'];
/** At most this many bad lines are told one by one; the rest are counted. */
export const MAX_PROBLEMS_SHOWN = 100;
/** A record with more fields than this is refused while reading (the header has 3): it bounds memory, as MAX_FIELD_LENGTH does. */
export const MAX_FIELDS = 100;
/** The longest NDJSON line read, in bytes: MAX_FIELD_LENGTH characters take at most 4 bytes each. */
const MAX_LINE_BYTES = 4 * MAX_FIELD_LENGTH;
/** Rows per insert statement: 5 parameters each stays far below SQLite's and PostgreSQL's limits. */
const ROWS_PER_INSERT = 500;

const CR = 0x0d;
const LF = 0x0a;
const NOT_UTF8 = 'the file is not UTF-8 text from here on (save it as UTF-8, "CSV UTF-8" in a spreadsheet)';

/** A problem with one line of the file. */
export interface LineProblem {
  line: number;
  field: string;
  message: string;
}

/** The file cannot be read as a whole (a broken quote, an oversized field, a bad header): nothing more is checked. */
export class ImportFileError extends Error {
  constructor(readonly problem: LineProblem) {
    super(`line ${problem.line}: ${problem.field}: ${problem.message}`);
  }
}

/** One CSV record and the line it starts on (1 is the header). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * An RFC 4180 reader fed text in pieces of any size: quoted fields with `""` escapes, CRLF or LF
 * line ends, line breaks inside quotes (counted, so each record says the line it starts on).
 * A byte-order mark at the very start is ignored. An empty line between records is skipped.
 */
export class CsvParser {
  private fields: string[] = [];
  private field = '';
  private quoted = false;
  /** Inside quotes; `afterQuote`: a closing (or escaping) quote was just read. */
  private inQuotes = false;
  private afterQuote = false;
  private pendingCr = false;
  private quotedCr = false;
  private line = 1;
  private recordLine = 1;
  private started = false;

  /** The records completed by this piece of text. */
  push(text: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    let start = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const c = text[i]!;
      if (this.pendingCr) {
        this.pendingCr = false;
        if (c === '\n') continue;
      }
      if (this.inQuotes) {
        if (this.afterQuote) {
          this.afterQuote = false;
          if (c === '"') {
            this.append('"');
            continue;
          }
          this.inQuotes = false;
          // Falls through to read c as text after the closing quote.
        } else {
          if (c === '"') this.afterQuote = true;
          else {
            // CR, LF and CRLF are each one line break.
            if (c === '\r' || (c === '\n' && !this.quotedCr)) this.line += 1;
            this.append(c);
          }
          this.quotedCr = c === '\r';
          continue;
        }
      }
      if (c === ',') this.endField();
      else if (c === '\r' || c === '\n') {
        if (c === '\r') this.pendingCr = true;
        this.endRecord(records);
        this.line += 1;
        this.recordLine = this.line;
      } else if (c === '"') {
        if (this.quoted || this.field.length > 0)
          throw this.problem(this.line, 'a quote inside an unquoted field (a field holding quotes must be quoted, its quotes doubled)');
        this.quoted = true;
        this.inQuotes = true;
      } else {
        if (this.quoted) throw this.problem(this.line, 'text after the closing quote of a field (a quote inside a quoted field is written "")');
        this.append(c);
      }
    }
    return records;
  }

  /** The last record, when the file does not end with a line break; refuses an unterminated quote. */
  end(): CsvRecord[] {
    if (this.inQuotes && !this.afterQuote) throw this.problem(this.recordLine, 'a quoted field is not closed before the end of the file');
    const records: CsvRecord[] = [];
    this.inQuotes = false;
    this.afterQuote = false;
    this.endRecord(records);
    return records;
  }

  private append(c: string): void {
    if (this.field.length >= MAX_FIELD_LENGTH)
      throw this.problem(this.recordLine, `a field is longer than ${MAX_FIELD_LENGTH.toLocaleString('en-US')} characters`);
    this.field += c;
  }

  private endField(): void {
    if (this.fields.length >= MAX_FIELDS) throw this.problem(this.recordLine, `a line has more than ${MAX_FIELDS} fields`);
    this.fields.push(this.field);
    this.field = '';
    this.quoted = false;
  }

  private endRecord(records: CsvRecord[]): void {
    const empty = this.fields.length === 0 && this.field === '' && !this.quoted;
    this.endField();
    if (!empty) records.push({ line: this.recordLine, fields: this.fields });
    this.fields = [];
  }

  /** The line being read, for a problem found outside the parser (bytes that are not UTF-8). */
  get currentLine(): number {
    return this.line;
  }

  private problem(line: number, message: string): ImportFileError {
    return new ImportFileError({ line, field: 'file', message });
  }
}

/** A line's value before validation, and the line it starts on. */
export interface Candidate {
  line: number;
  value: unknown;
}

/** Maps CSV records to objects by the header's column names (any order); the header must be the first record. */
export function* csvCandidates(records: Iterable<CsvRecord>, state: { columns?: string[] }): Generator<Candidate> {
  for (const record of records) {
    if (state.columns === undefined) {
      state.columns = headerColumns(record);
      continue;
    }
    const columns = state.columns;
    if (record.fields.length !== columns.length) {
      yield { line: record.line, value: new FieldCountProblem(record.fields.length, columns.length) };
      continue;
    }
    const value: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      const text = record.fields[i]!;
      // An empty status is an omitted one: the API's default applies.
      if (column === 'status' && text === '') return;
      // Text is converted only when it is plain decimal digits, as the API does for query parameters.
      value[column] = column === 'categoryId' && /^\d{1,20}$/.test(text) ? Number(text) : text;
    });
    yield { line: record.line, value };
  }
}

class FieldCountProblem {
  constructor(
    readonly given: number,
    readonly expected: number,
  ) {}
}

function headerColumns(record: CsvRecord): string[] {
  const columns = record.fields;
  const problem = (message: string) => new ImportFileError({ line: record.line, field: 'header', message });
  const unknown = columns.filter((column) => !(IMPORT_COLUMNS as readonly string[]).includes(column));
  if (unknown.length > 0)
    throw problem(
      `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => JSON.stringify(c)).join(', ')} (the columns are ${IMPORT_COLUMNS.join(', ')})`,
    );
  const twice = columns.find((column, i) => columns.indexOf(column) !== i);
  if (twice !== undefined) throw problem(`column ${JSON.stringify(twice)} is given twice`);
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length > 0)
    throw problem(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (the header is ${IMPORT_COLUMNS.join(',')}; status is optional)`);
  return columns;
}

/** One NDJSON line read with the HTTP JSON parser's strictness (numbers never rounded, no duplicate keys). */
export function ndjsonCandidate(line: number, text: string): Candidate | undefined {
  if (text.trim() === '') return undefined;
  try {
    return { line, value: parseExactJson(text) };
  } catch (error) {
    return { line, value: new JsonProblem((error as Error).message.replace(/^body /, 'line ')) };
  }
}

class JsonProblem {
  constructor(readonly message: string) {}
}

let validateNewPet: ValidateFunction | undefined;

/** What an import did: the pets added (0 when any line is bad), the bad lines' problems (the first MAX_PROBLEMS_SHOWN) and how many lines were bad. */
export interface PetsImported {
  added: number;
  problems: LineProblem[];
  badLines: number;
}

/** Streams the file's lines as candidates; `onBytes` hears how many bytes are read so far. */
async function* readCandidates(path: string, format: ImportFormat, onBytes: (bytes: number) => void): AsyncGenerator<Candidate> {
  const stream = createReadStream(path);
  let bytes = 0;
  stream.on('data', (chunk) => onBytes((bytes += chunk.length)));
  if (format === 'csv') {
    const parser = new CsvParser();
    const state: { columns?: string[] } = {};
    // Strict: bytes that are not UTF-8 (a spreadsheet saved as Windows-1252) would otherwise become
    // U+FFFD in the names stored.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    // The bytes the decoder holds back (a character the last read cut) and whether that read ended
    // with a CR: where a byte that is not UTF-8 is, the line is counted on from them.
    let held: Buffer = Buffer.alloc(0);
    let afterCr = false;
    const decode = (chunk?: Buffer) => {
      try {
        const text = chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
        if (chunk !== undefined && chunk.length > 0) {
          held = unfinishedCharacter(Buffer.concat([held, chunk.subarray(-3)]));
          afterCr = chunk.at(-1) === CR;
        }
        return text;
      } catch {
        const bytes = chunk === undefined ? held : Buffer.concat([held, chunk]);
        const bad = firstIllFormed(bytes);
        throw new ImportFileError({
          line: parser.currentLine + breaksBefore(bytes, bad === -1 ? bytes.length : bad, afterCr),
          field: 'file',
          message: NOT_UTF8,
        });
      }
    };
    for await (const chunk of stream as AsyncIterable<Buffer>) yield* csvCandidates(parser.push(decode(chunk)), state);
    yield* csvCandidates([...parser.push(decode()), ...parser.end()], state);
    if (state.columns === undefined)
      throw new ImportFileError({ line: 1, field: 'header', message: `the file is empty; it needs the header ${IMPORT_COLUMNS.join(',')}` });
    return;
  }
  try {
    for await (const { number: line, text } of boundedLines(stream, MAX_LINE_BYTES)) {
      if (text.length > MAX_FIELD_LENGTH) {
        yield { line, value: new JsonProblem(`line is longer than ${MAX_FIELD_LENGTH.toLocaleString('en-US')} characters`) };
        continue;
      }
      const candidate = ndjsonCandidate(line, line === 1 ? text.replace(/^\uFEFF/, '') : text);
      if (candidate) yield candidate;
    }
  } catch (error) {
    if (!(error instanceof LineRefused)) throw error;
    throw new ImportFileError({
      line: error.line,
      field: 'file',
      message: error.reason === 'too long' ? `the line is longer than ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes` : NOT_UTF8,
    });
  }
}

/**
 * Where the first ill-formed sequence of `bytes` starts (the decoding standard's rules: no overlong
 * form, no surrogate, nothing past U+10FFFF), or -1; a character cut at the end is not ill-formed.
 */
function firstIllFormed(bytes: Uint8Array): number {
  let needed = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (needed === 0) {
      if (byte < 0x80) continue;
      start = i;
      if (byte >= 0xc2 && byte <= 0xdf) needed = 1;
      else if (byte >= 0xe0 && byte <= 0xef) [needed, lower, upper] = [2, byte === 0xe0 ? 0xa0 : 0x80, byte === 0xed ? 0x9f : 0xbf];
      else if (byte >= 0xf0 && byte <= 0xf4) [needed, lower, upper] = [3, byte === 0xf0 ? 0x90 : 0x80, byte === 0xf4 ? 0x8f : 0xbf];
      else return i;
    } else if (byte < lower || byte > upper) return start;
    else [needed, lower, upper] = [needed - 1, 0x80, 0xbf];
  }
  return -1;
}

/** The line breaks in `bytes` before `end`, counted as the parser counts them: CR, LF and CRLF are each one. */
function breaksBefore(bytes: Uint8Array, end: number, afterCr: boolean): number {
  let breaks = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === CR || (bytes[i] === LF && !(i === 0 ? afterCr : bytes[i - 1] === CR))) breaks += 1;
  return breaks;
}

/** The end of `bytes` that begins a character they cut (what a streaming decoder holds back), or nothing. */
function unfinishedCharacter(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? Buffer.from(bytes.subarray(bytes.length - back)) : Buffer.alloc(0);
  }
  return Buffer.alloc(0);
}

/** The database failed while adding: its transaction rolled back, nothing was added. */
export class PetsNotAdded extends Error {
  constructor(readonly failure: unknown) {
    super((failure as Error).message);
  }
}

/**
 * Reads the whole file, checking each line, then adds its pets in one transaction, ROWS_PER_INSERT
 * rows per statement. The transaction opens only once the file has ended, so a slow input (a named
 * pipe, a network disk) never holds SQLite's write lock or a PostgreSQL transaction open while it
 * is read; the price is memory for the valid pets (about 100 bytes each). A bad line stops the
 * collecting but not the checking: every bad line is told, and nothing is added. Each row's
 * trigger records its `pet.created` event; on PostgreSQL the events are then numbered, so they
 * take their feed positions without a running service. Throws ImportFileError when the file cannot
 * be read as a whole, PetsNotAdded when the database fails.
 */
export async function importPetsFile(
  db: Kysely<Database>,
  path: string,
  format: ImportFormat,
  hear: { onBytes?: (bytes: number) => void; onWritten?: (written: number) => void } = {},
  now = Date.now,
): Promise<PetsImported> {
  const result: PetsImported = { added: 0, problems: [], badLines: 0 };
  const pets: NewPet[] = [];
  for await (const candidate of readCandidates(path, format, hear.onBytes ?? (() => {}))) {
    const checked = checkPet(candidate);
    if ('pet' in checked) {
      if (result.badLines === 0) pets.push(checked.pet);
      continue;
    }
    result.badLines += 1;
    pets.length = 0;
    if (result.problems.length < MAX_PROBLEMS_SHOWN) result.problems.push(...checked.problems);
  }
  if (result.badLines > 0 || pets.length === 0) return result;
  const createdAt = now();
  try {
    await writeTransaction(db, async (trx) => {
      for (let from = 0; from < pets.length; from += ROWS_PER_INSERT) {
        const rows = pets.slice(from, from + ROWS_PER_INSERT).map((pet) => ({
          name: pet.name,
          nameKey: petNameKey(pet.name),
          categoryId: pet.categoryId,
          status: pet.status ?? DEFAULT_PET_STATUS,
          createdAt,
        }));
        await trx.insertInto('pets').values(rows).execute();
        hear.onWritten?.(from + rows.length);
      }
    });
  } catch (error) {
    throw new PetsNotAdded(error);
  }
  await numberWaitingEvents(db);
  result.added = pets.length;
  return result;
}

/** The pet a line describes, or its problems in the API's own words (the validator of POST /v1/pets bodies). */
export function checkPet(candidate: Candidate): { pet: NewPet } | { problems: LineProblem[] } {
  const { line, value } = candidate;
  if (value instanceof FieldCountProblem)
    return { problems: [{ line, field: 'line', message: `has ${value.given} fields; the header has ${value.expected}` }] };
  if (value instanceof JsonProblem) return { problems: [{ line, field: 'line', message: value.message }] };
  validateNewPet ??= createValidatorCompiler([])({ schema: NewPetSchema, httpPart: 'body', method: 'POST', url: '/v1/pets' }) as ValidateFunction;
  if (validateNewPet(value)) return { pet: value as NewPet };
  const { problems } = describeValidationErrors(validateNewPet.errors ?? [], 'body');
  return { problems: problems.map((problem) => ({ line, field: problem.field.replace(/^body\.?/, '') || 'line', message: problem.message })) };
}
