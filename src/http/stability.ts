/**
 * Stability markers of operations in the contract. A beta operation carries `x-stability: beta`
 * in openapi.json (for tools) and a visible line at the start of its description (for people,
 * in /docs); what beta promises is written once, here, and in docs/api.md.
 */

declare module 'fastify' {
  interface FastifySchema {
    /** Copied by @fastify/swagger onto the operation, as every `x-` key of a route schema is. */
    'x-stability'?: 'beta';
  }
}

export const BETA_PROMISE =
  'It may still change: a change that could break a client is announced in the changelog (CHANGELOG.md) at least one release before it ships, and a beta operation is never removed without a deprecation period (`Deprecation` and `Sunset` headers, as on `getPet`).';

/** The schema fields that mark an operation as beta: the extension and the description's first line. */
export function beta(description: string): { 'x-stability': 'beta'; description: string } {
  return { 'x-stability': 'beta', description: `**Beta.** ${BETA_PROMISE}\n\n${description}` };
}
