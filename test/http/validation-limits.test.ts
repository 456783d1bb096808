import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ErrorObject } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { describeValidationErrors, MAX_DETAILS, refusingManyUnknownFields } from '../../src/http/validation.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Short distinct field names (digit-only ones come first in an object, as on the server). */
const fieldName = (i: number) => i.toString(36);

describe('POST /v1/pets with many unknown fields', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  const post = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  it('8,339 unknown fields in 64 KiB > answers 400 listing the first 10 and counting the rest, in under 2 KB', async () => {
    const body: Record<string, unknown> = { name: 'Rex', categoryId: 1 };
    for (let i = 0; i < 8339; i++) body[fieldName(i)] = 1;
    assert.ok(JSON.stringify(body).length <= 65_536);
    const response = await post(body);
    const first = Object.keys(body)
      .filter((name) => name !== 'name' && name !== 'categoryId')
      .slice(0, MAX_DETAILS)
      .map((name) => `body.${name}`);
    assertErrorBody(response, {
      status: 400,
      code: 'validation_failed',
      message: `${first.map((f) => `${f} is not a known field`).join('; ')}; and 8,329 more`,
    });
    assert.deepEqual(
      response.json().details,
      first.map((field) => ({ field, message: `${field} is not a known field` })),
    );
    assert.ok(response.body.length < 2000, `${response.body.length} bytes`);
  });

  it('one unknown field with a 65,000-character name > is named cut short, in a small answer', async () => {
    const huge = 'q'.repeat(65_000);
    const response = await post({ name: 'Rex', categoryId: 1, [huge]: 1 });
    const shown = `body.${'q'.repeat(64)}…`;
    assertErrorBody(response, { status: 400, code: 'validation_failed', message: `${shown} is not a known field` });
    assert.deepEqual(response.json().details, [{ field: shown, message: `${shown} is not a known field` }]);
    assert.ok(response.body.length < 1000, `${response.body.length} bytes`);
  });

  it('a few unknown fields beside a wrong type > are all told, with the wrong type', async () => {
    const response = await post({ name: 'Rex', categoryId: '1', colour: 'red', stauts: 'sold' });
    assertErrorBody(response, { status: 400, code: 'validation_failed', message: /body\.categoryId must be an integer/ });
    assert.deepEqual(
      response
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
      ['body.categoryId', 'body.colour', 'body.stauts'],
    );
  });

  it('11 unknown fields, one more than are listed > lists 10 and says "and 1 more"', async () => {
    const body: Record<string, unknown> = { name: 'Rex', categoryId: 1 };
    for (let i = 0; i < MAX_DETAILS + 1; i++) body[`x${fieldName(i)}`] = 1;
    const response = await post(body);
    assertErrorBody(response, { status: 400, code: 'validation_failed', message: /; and 1 more$/ });
    assert.equal(response.json().details.length, MAX_DETAILS);
  });
});

describe('describeValidationErrors', () => {
  const typeError = (field: string): ErrorObject => ({ keyword: 'type', instancePath: `/${field}`, schemaPath: '#', params: { type: 'integer' }, data: 'x' });

  it('more problems than are listed > lists the first and counts the others', () => {
    const errors = Array.from({ length: 25 }, (_, i) => typeError(`f${i}`));
    const summary = describeValidationErrors(errors, 'body');
    assert.equal(summary.problems.length, MAX_DETAILS);
    assert.equal(summary.more, 15);
    assert.match(summary.message, /^body\.f0 must be an integer; .*body\.f9 must be an integer; and 15 more$/);
  });

  it('a field name of surrogate pairs > is cut between code points, never inside one', () => {
    const summary = describeValidationErrors([typeError('😀'.repeat(100))], 'body');
    assert.equal(summary.problems[0]!.field, `body.${'😀'.repeat(64)}…`);
  });
});

describe('refusingManyUnknownFields', () => {
  const schema = { type: 'object', properties: { name: {}, categoryId: {} }, additionalProperties: false };
  const counting = () => {
    const validate = (() => {
      validate.calls += 1;
      return true;
    }) as unknown as ValidateFunction & { calls: number };
    validate.calls = 0;
    return validate;
  };
  const withUnknown = (count: number) => Object.fromEntries([['name', 'Rex'], ...Array.from({ length: count }, (_, i) => [`x${i}`, 1])]);

  it('more unknown fields than are listed > refuses them without running the schema validator', () => {
    const validate = counting();
    const checked = refusingManyUnknownFields(schema, validate);
    assert.equal(checked(withUnknown(MAX_DETAILS + 1)), false);
    assert.equal(validate.calls, 0);
    assert.equal(checked.errors?.length, MAX_DETAILS + 1);
    assert.deepEqual(checked.errors?.at(-1)?.params, { count: 1 });
  });

  it('as many unknown fields as are listed, or fewer > leaves them to the schema validator', () => {
    const validate = counting();
    const checked = refusingManyUnknownFields(schema, validate);
    assert.equal(checked(withUnknown(MAX_DETAILS)), true);
    assert.equal(validate.calls, 1);
  });
});
