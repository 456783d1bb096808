/** Assertions shared by suites: the one Error shape. */
import assert from 'node:assert/strict';

export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  json(): any;
}

/** Asserts the Error shape: exactly code, message, status (and details when there are some), as JSON. */
export function assertErrorBody(response: HttpAnswer, code: string, status: number, message?: RegExp): { code: string; message: string; status: number; details?: { field: string; message: string }[] } {
  assert.equal(response.statusCode, status, response.body);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const body = response.json();
  assert.deepEqual(Object.keys(body).filter((k) => k !== 'details').sort(), ['code', 'message', 'status']);
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.equal(typeof body.message, 'string');
  if (message) assert.match(body.message, message);
  return body;
}
