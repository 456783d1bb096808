/** The one check of an error answer: its status, the Error shape exactly, and its content type. */
import assert from 'node:assert/strict';

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}

/** `message` is compared exactly when a string, or matched when a RegExp. */
export function assertErrorBody(response: Answer, status: number, code: string, message: string | RegExp): void {
  assert.equal(response.statusCode, status);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).filter((key) => key !== 'details').sort(), ['code', 'message', 'status']);
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  if (typeof message === 'string') assert.equal(body.message, message);
  else assert.match(String(body.message), message);
}
