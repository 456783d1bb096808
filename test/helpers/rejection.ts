import assert from 'node:assert/strict';

/** What `work` rejected with; fails the test when it resolved. */
export async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return assert.fail('the work succeeded where it should have failed');
}
