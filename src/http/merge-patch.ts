/**
 * JSON Merge Patch (RFC 7396) bodies. In a merge patch `null` removes a member; a member the
 * resource cannot be without is refused by name here, with that reason, before the schema
 * (which would only say that null is not a string) sees the body.
 */
import { AppError, type ErrorDetail } from '../errors.js';

export function refuseRemovalOfRequired(patch: unknown, required: readonly string[]): void {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return;
  const problems: ErrorDetail[] = required
    .filter((member) => Object.hasOwn(patch, member) && (patch as Record<string, unknown>)[member] === null)
    .map((member) => ({
      field: `body.${member}`,
      message: `body.${member} cannot be null: in a merge patch null removes a field, and ${member} is required; send a new value or leave it out`,
    }));
  if (problems.length > 0) throw new AppError('validation_failed', problems.map((p) => p.message).join('; '), problems);
}
