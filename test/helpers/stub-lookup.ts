/**
 * A stand-in for DNS in tests of webhook URLs: names answer the addresses a test gives them, any
 * other name does not resolve (ENOTFOUND, as getaddrinfo says it). No test resolves a real name,
 * and none sends anything to the private addresses these stubs answer.
 */
import { isIP } from 'node:net';
import type { HostLookup } from '../../src/webhooks/webhook-url-policy.js';

export function stubLookup(answers: Record<string, readonly string[]>): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };
  return Object.assign(lookup, { asked });
}

/** Names for the usual cases: a public receiver, and names that resolve to non-public addresses. */
export const STUB_DNS = {
  'receiver.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example': ['10.1.2.3'],
  'mixed.example': ['93.184.215.14', '127.0.0.1'],
  'v6-internal.example': ['fd12:3456::1'],
  'metadata.example': ['169.254.169.254'],
  /** IPv4-compatible: `::127.0.0.1`. */
  'compat.example': ['::7f00:1'],
} as const;
