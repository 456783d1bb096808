/**
 * Which URLs a webhook may be sent to, checked when an endpoint is registered or its URL changed
 * (SSRF: a key holder must not make the service call its own network). A URL must be `https`,
 * without credentials or fragment, and its host must be public: an IP literal that is not, or a
 * name resolving to any address that is not, is refused. A name that does not resolve (yet), or
 * whose lookup fails or takes longer than LOOKUP_TIMEOUT_MS, is accepted: DNS can change anyway,
 * so every connection is checked again (the dispatcher, with request-filtering-agent). The
 * operator's WEBHOOK_ALLOWED_HOSTS skip the address check, and may be reached over `http` too.
 *
 * Names are asked of DNS through c-ares (webhook-dns.ts), as the sender does, never with
 * `dns.lookup`: getaddrinfo holds one of libuv's 4 threads for as long as the system resolver tries
 * (about 20 s for a name whose DNS never answers), so a few hostile registrations stalled every
 * lookup, file and crypto call of the process. At most REGISTRATION_LOOKUPS_PER_KEY lookups of one
 * API key run at once (one more is answered "retry later", for that key only), and at most
 * REGISTRATION_LOOKUPS_MAX in the process: while they all run (many keys at once), a URL is accepted
 * without its lookup, as a name that does not resolve yet is; the check at connection protects. So
 * one key keeping names whose DNS never answers in flight blocks only its own registrations.
 *
 * "Public" is an address ipaddr.js ranges as `unicast` (no loopback, private, link-local,
 * unique-local, carrier-grade NAT, multicast, unspecified, reserved, IPv4-mapped, 6to4, Teredo, …),
 * as request-filtering-agent decides at connection time, less one range both take for public: the
 * IPv4-compatible `::/96` (`::7f00:1` is `::127.0.0.1`), deprecated by RFC 4291: where it leads
 * depends on the host's network stack, never on a public IPv6 route. The sender applies the same
 * test (webhook-sender.ts).
 * A host name with an empty label (`localhost..`, `a..b.example`) is refused: resolvers disagree
 * on what it names.
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { createResolverLookup, type ResolverLookupOptions } from './webhook-dns.js';

/** Longest URL accepted, in characters (as sent). */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** How long a registration waits for a name's addresses; past it, the name counts as not resolving yet. */
export const LOOKUP_TIMEOUT_MS = 2000;
/** The most lookups of registrations running at once in one process (each ends by itself within about 4 s). */
export const REGISTRATION_LOOKUPS_MAX = 16;
/** The most lookups of one API key's registrations running at once. */
export const REGISTRATION_LOOKUPS_PER_KEY = 2;
/** The resolver's tries for a registration: 1 s, then a longer one (c-ares backs off), so a lookup ends by itself within about 4 s. */
const REGISTRATION_DNS: ResolverLookupOptions = { timeoutMs: 1000, tries: 2 };

/** Every address a name resolves to, as `dns.lookup(name, { all: true })` answers; tests give a stub. */
export type HostLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** The production lookup: c-ares (A and AAAA), no threadpool, no /etc/hosts. `dns` for tests: the name servers asked. */
export function resolverHostLookup(dns: ResolverLookupOptions = {}): HostLookup {
  const lookup = createResolverLookup({ ...REGISTRATION_DNS, ...dns });
  return (hostname) =>
    new Promise((resolve, reject) => {
      lookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses as unknown as LookupAddress[])));
    });
}

/**
 * The lookups in progress, per API key and in all: `take` answers how to give the slot back, or
 * why none was given (`key`: this key's are all taken; `process`: the process's are).
 */
export interface LookupSlots {
  take(keyId: number): (() => void) | 'key' | 'process';
}

export function createLookupSlots(max: number = REGISTRATION_LOOKUPS_MAX, perKey: number = REGISTRATION_LOOKUPS_PER_KEY): LookupSlots {
  let inUse = 0;
  const byKey = new Map<number, number>();
  return {
    take(keyId) {
      const ofKey = byKey.get(keyId) ?? 0;
      if (ofKey >= perKey) return 'key';
      if (inUse >= max) return 'process';
      inUse++;
      byKey.set(keyId, ofKey + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        inUse--;
        const left = (byKey.get(keyId) ?? 1) - 1;
        if (left === 0) byKey.delete(keyId);
        else byKey.set(keyId, left);
      };
    },
  };
}

export interface WebhookUrlPolicy {
  /** config.webhookAllowedHosts: lower-case names and addresses (IPv6 without brackets). */
  allowedHosts: readonly string[];
  lookup: HostLookup;
  lookupTimeoutMs?: number;
  /** The lookups in progress, with the API key asking; none means no cap (unit tests). */
  lookupSlots?: { slots: LookupSlots; keyId: number; onUnchecked?: () => void };
}

/**
 * The URL as it will be stored and called (WHATWG-normalised), or why it is refused; `busy` when
 * it could not be checked now (every lookup slot taken): the caller answers "retry later".
 */
export type UrlVerdict = { accepted: true; url: string } | { accepted: false; reason: string; busy?: true };

/** The IPv4-compatible IPv6 addresses (RFC 4291 §2.5.5.1), whose `::` and `::1` ipaddr.js ranges apart. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** ipaddr.js's range of an address, or `ipv4Compatible` for the rest of `::/96`, which it calls `unicast`. */
function rangeOfAddress(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range();
  return range === 'unicast' && address.kind() === 'ipv6' && address.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : range;
}

/** True for an IP address (v4 or v6, without brackets) that is public; false for any other text. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return false;
  return rangeOfAddress(ipaddr.parse(address)) === 'unicast';
}

/** True for a host name with an empty label (`a..b`, `.a`, `a..`), a single trailing dot aside. */
export function hasEmptyLabel(hostname: string): boolean {
  return isIP(hostname) === 0 && hostname.replace(/\.$/, '').split('.').includes('');
}

/**
 * True when the operator listed this host in WEBHOOK_ALLOWED_HOSTS. `hostname` as a URL gives it
 * (`[::1]`, `Example.COM.`): compared without brackets, case or trailing dot, addresses in any
 * spelling (`::1` and `0:0:0:0:0:0:0:1` are one).
 */
export function isOperatorAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = canonicalHost(hostname);
  return allowedHosts.some((allowed) => canonicalHost(allowed) === host);
}

function canonicalHost(text: string): string {
  const bare = text
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return isIP(bare) === 0 ? bare : ipaddr.parse(bare).toNormalizedString();
}

/** Checks a webhook URL at registration; see the module's header for the rules. */
export async function checkWebhookUrl(text: string, policy: WebhookUrlPolicy): Promise<UrlVerdict> {
  const refuse = (reason: string): UrlVerdict => ({ accepted: false, reason });
  if (text.length > WEBHOOK_URL_MAX_LENGTH) return refuse(`must have at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  const url = URL.parse(text);
  if (url === null) return refuse('must be an absolute URL, such as https://example.com/webhooks');
  const allowedHost = url.hostname !== '' && isOperatorAllowedHost(url.hostname, policy.allowedHosts);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowedHost)) {
    return refuse(
      url.protocol === 'http:' ? 'must use https (http only for the hosts of WEBHOOK_ALLOWED_HOSTS)' : `must use https, not ${url.protocol.slice(0, 20)}`,
    );
  }
  if (url.username !== '' || url.password !== '') return refuse('must not hold a user name or password: authenticate the sender with the signature');
  // An empty fragment (`…#`) is kept in href but not in hash.
  if (url.href.includes('#')) return refuse('must not have a fragment (#…): it is never sent to the receiver');
  if (allowedHost) return { accepted: true, url: url.href };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) {
    return isPublicAddress(host) ? { accepted: true, url: url.href } : refuse(`must not point at a non-public address: ${host} is one (${rangeOf(host)})`);
  }
  if (hasEmptyLabel(host)) return refuse(`must not have an empty label in its host name (${host.slice(0, 100)})`);
  // RFC 6761: these names are loopback wherever they are resolved (DNS is not asked; /etc/hosts, which c-ares does not read, says so too).
  if (/(^|\.)localhost\.?$/.test(host)) return refuse(`must not point at a non-public address: ${host} is one (loopback)`);
  const caps = policy.lookupSlots;
  const release = caps ? caps.slots.take(caps.keyId) : () => {};
  if (release === 'key') {
    return {
      accepted: false,
      reason: `could not be checked now: ${REGISTRATION_LOOKUPS_PER_KEY} URL checks of this API key are already running; retry later`,
      busy: true,
    };
  }
  if (release === 'process') {
    // Every slot is taken by several keys: accepted as a name that does not resolve yet is; each connection is checked.
    caps!.onUnchecked?.();
    return { accepted: true, url: url.href };
  }
  const addresses = await lookupWithin(host, policy.lookup, policy.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS, release);
  const hidden = addresses.find((one) => !isPublicAddress(one.address));
  // The address itself is not told: a name of the operator's internal DNS would be learnt by whoever asked.
  if (hidden) return refuse(`must not point at a non-public address: ${host} resolves to one (${rangeOf(hidden.address)})`);
  return { accepted: true, url: url.href };
}

/** What kind of address it is, in words, for the refusal's message. */
function rangeOf(address: string): string {
  if (!ipaddr.isValid(address)) return 'not an address';
  const range = rangeOfAddress(ipaddr.parse(address));
  return range.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

/**
 * The name's addresses, or none when it does not resolve, the lookup fails, or it takes longer
 * than `timeoutMs` (a lookup is not cancelled: it ends on its own, and is ignored). Its slot is
 * given back when the lookup itself ends, not when this stops waiting, so the cap counts every
 * query still out.
 */
async function lookupWithin(hostname: string, lookup: HostLookup, timeoutMs: number, release: () => void): Promise<readonly { address: string }[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<readonly { address: string }[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs);
    timer.unref();
  });
  const answer = Promise.resolve()
    .then(() => lookup(hostname))
    .catch(() => [])
    .finally(release);
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
