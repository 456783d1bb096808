/**
 * The one check of an error answer, for every suite: its status, its JSON content type, and the
 * Error shape exactly ({code, message, status}, plus `details` when there are some). It takes an
 * `inject()` response or a `fetch()`-style answer ({status, headers: Headers, body, text}).
 */
import assert from 'node:assert/strict';

/** An answer from `app.inject()`. */
interface InjectedAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  body?: string;
  json(): unknown;
}

/** An answer read from a real socket with `fetch()`: the body already parsed (undefined when not JSON). */
interface FetchedAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface ExpectedError {
  status: number;
  code: string;
  /** Compared exactly when a string, matched when a RegExp; any non-empty message when absent. */
  message?: string | RegExp;
}

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: { field: string; message: string }[];
}

export function assertErrorBody(response: InjectedAnswer | FetchedAnswer, expected: ExpectedError): ErrorBody {
  const { status, code, message } = expected;
  const injected = 'statusCode' in response;
  const actualStatus = injected ? response.statusCode : response.status;
  const text = injected ? (response.body ?? '') : response.text;
  assert.equal(actualStatus, status, `expected ${status} ${code}, got ${actualStatus}: ${text}`);
  const contentType = injected ? String(response.headers['content-type']) : (response.headers.get('content-type') ?? '');
  assert.match(contentType, /^application\/json/);
  const body = (injected ? response.json() : response.body) as Record<string, unknown>;
  assert.equal(typeof body, 'object');
  assert.deepEqual(
    Object.keys(body)
      .filter((key) => key !== 'details')
      .sort(),
    ['code', 'message', 'status'],
  );
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.equal(typeof body.message, 'string');
  assert.ok((body.message as string).length > 0, 'message is empty');
  if (typeof message === 'string') assert.equal(body.message, message);
  else if (message) assert.match(body.message as string, message);
  if ('details' in body) {
    assert.ok(Array.isArray(body.details) && body.details.length > 0, 'details, when present, is a non-empty array');
    for (const detail of body.details as unknown[]) {
      const { field, message: detailMessage } = detail as Record<string, unknown>;
      assert.deepEqual(detail, { field, message: detailMessage });
      assert.equal(typeof field, 'string');
      assert.equal(typeof detailMessage, 'string');
    }
  }
  return body as unknown as ErrorBody;
}
