/**
 * The DNS lookup of the dispatcher's connections to webhook hosts (webhook-sender.ts). Node's
 * default, `dns.lookup`, calls getaddrinfo on libuv's threadpool (4 threads shared with file and
 * crypto work): a receiver's name whose DNS answers slowly, or never, held a thread per attempt for
 * as long as the system resolver tried, so a few hostile endpoints could stall the whole process.
 * This one asks through c-ares (`dns.promises.Resolver`: non-blocking sockets, no threadpool), with
 * a timeout per try and few tries. It does not read /etc/hosts: the operator's names
 * (WEBHOOK_ALLOWED_HOSTS, such as `localhost`) keep the system's lookup. The SSRF check of the
 * answered address is request-filtering-agent's, at connection, as before.
 */
import { promises as dns } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/** How long one DNS try waits for its answer, and the tries: a name costs at most about 2 × 2 s. */
const DNS_TIMEOUT_MS = 2000;
const DNS_TRIES = 2;

/** The codes of a DNS failure, from getaddrinfo or c-ares (`dns.NOTFOUND`, `dns.TIMEOUT`, …). */
const DNS_ERRORS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'ETIMEOUT', 'ESERVFAIL', 'EREFUSED', 'ECONNREFUSED', 'EBADRESP', 'ECANCELLED', 'EBADNAME']);

export function isDnsFailure(error: NodeJS.ErrnoException): boolean {
  return (
    error.code !== undefined &&
    DNS_ERRORS.has(error.code) &&
    (error.syscall === undefined || error.syscall === 'getaddrinfo' || error.syscall.startsWith('query'))
  );
}

export interface ResolverLookupOptions {
  timeoutMs?: number;
  tries?: number;
  /** Tests only: the name servers asked instead of the system's. */
  servers?: readonly string[];
}

/** A `lookup` for `net.connect` that asks c-ares for the A and AAAA records (as `family` asks), IPv4 first. */
export function createResolverLookup(options: ResolverLookupOptions = {}): LookupFunction {
  const resolver = new dns.Resolver({ timeout: options.timeoutMs ?? DNS_TIMEOUT_MS, tries: options.tries ?? DNS_TRIES });
  if (options.servers) resolver.setServers([...options.servers]);
  const records = (ask: boolean, query: () => Promise<string[]>, family: 4 | 6): Promise<LookupAddress[] | Error> =>
    ask
      ? query().then(
          (addresses) => addresses.map((address) => ({ address, family })),
          (error: Error) => error,
        )
      : Promise.resolve([]);

  return (hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : (lookupOptions.family ?? 0);
    void Promise.all([records(family !== 6, () => resolver.resolve4(hostname), 4), records(family !== 4, () => resolver.resolve6(hostname), 6)]).then(
      (answers) => {
        const addresses = answers.flatMap((answer) => (answer instanceof Error ? [] : answer));
        const first = addresses[0];
        if (first === undefined) {
          const failure =
            answers.find((answer): answer is Error => answer instanceof Error) ??
            Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'queryA', hostname });
          callback(failure, '', 0);
        } else if (lookupOptions.all) {
          (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      },
    );
  };
}
