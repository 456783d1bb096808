/**
 * One attempt of a webhook delivery: a POST of the exact payload with the Standard Webhooks
 * headers, answered within the timeout or not. Nothing here touches the database.
 *
 * - Success is any 2xx; redirects are not followed (a 3xx is a failure, as any other status).
 * - The attempt lasts until its connection is free again: the answer's body is read and thrown
 *   away, at most RESPONSE_BODY_CAP bytes and only until the timeout, then the connection is
 *   dropped. So a receiver that answers and then never ends its body holds one send slot and one
 *   socket for at most the timeout, never a socket beyond the dispatcher's count. The outcome is
 *   the status line's, whatever becomes of the body.
 * - Sockets: at most `maxSockets` open in the process over every agent (webhook-socket-cap.ts).
 *   A connection that fails for want of file descriptors (EMFILE, ENFILE) says so (`noDescriptors`).
 * - SSRF: a host that is not in WEBHOOK_ALLOWED_HOSTS must be public (isPublicAddress: the IPv4-
 *   compatible `::/96` is not): an IP literal is checked before connecting, and a name's addresses
 *   as DNS gives them at connection time (a name that pointed at a public address when registered
 *   may point elsewhere now); `request-filtering-agent` checks them again. Only the allowed hosts
 *   get a plain agent, and only they may be reached over `http`.
 */
import { isIP, type LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { createResolverLookup, isDnsFailure, type ResolverLookupOptions } from './webhook-dns.js';
import { signatureHeader } from './webhook-signature.js';
import { capSockets } from './webhook-socket-cap.js';
import { hasEmptyLabel, isOperatorAllowedHost, isPublicAddress } from './webhook-url-policy.js';

/** The most of an answer's body read before the connection is dropped. */
const RESPONSE_BODY_CAP = 64 * 1024;
/** What an attempt refused by the SSRF check records as its error. */
export const REFUSED_NOT_PUBLIC = 'refused: not a public address';
/** The code of our lookup's refusal of a non-public address. */
const NOT_PUBLIC_CODE = 'ENOTPUBLIC';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const USER_AGENT = `animal-store-webhooks/${VERSION}`;

interface WebhookMessage {
  url: string;
  /** The `webhook-id` header. */
  messageId: string;
  /** The body, exactly as stored. */
  payload: string;
  /** The secrets that sign it: the current one, and the previous one during a rotation. */
  secrets: readonly string[];
  /** This attempt's timeout when shorter than the sender's (what is left of its lease). */
  timeoutMs?: number;
}

export interface AttemptResult {
  /** The receiver's status, when it answered. */
  statusCode?: number;
  /** `Retry-After` of the answer, as sent. */
  retryAfter?: string;
  /** Why there is no 2xx status: a short text without secrets (no URL, no header values). */
  error?: string;
  /** The SSRF check refused the address. */
  refused?: boolean;
  /** The attempt was cut short because the process is stopping: it says nothing of the receiver. */
  aborted?: boolean;
  /** The connection failed for want of file descriptors (EMFILE, ENFILE): it says nothing of the receiver. */
  noDescriptors?: boolean;
  /** Until the status line, or the failure. */
  durationMs: number;
}

export interface SenderOptions {
  /** Host names and addresses exempt from the SSRF check (config.webhookAllowedHosts). */
  allowedHosts: readonly string[];
  /** The longest an attempt waits for its answer and reads its body (and an idle connection lives). */
  timeoutMs: number;
  /** The most sockets open at once, in use or idle, over every agent (WEBHOOK_MAX_SOCKETS); no more attempts than this may be in flight. */
  maxSockets: number;
  /** The clock of `webhook-timestamp`. */
  now: () => number;
  /** Tests only: the DNS lookup of every connection (a stub that answers a private address, say). */
  lookup?: LookupFunction | undefined;
  /** Tests only: the resolver of names outside WEBHOOK_ALLOWED_HOSTS (its name servers, its timeout). */
  dns?: ResolverLookupOptions | undefined;
}

export interface WebhookSender {
  send(message: WebhookMessage, stop: AbortSignal): Promise<AttemptResult>;
  /** Closes the idle connections kept for reuse. */
  close(): void;
}

export function createWebhookSender(options: SenderOptions): WebhookSender {
  // One origin may have them all: no agent ever queues a request, as no more than maxSockets are in flight.
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, maxFreeSockets: 64, timeout: options.timeoutMs };
  const agents = {
    allowed: { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) },
    filtered: { 'http:': new RequestFilteringHttpAgent(agentOptions), 'https:': new RequestFilteringHttpsAgent(agentOptions) },
  };
  const allAgents = [agents.allowed['http:'], agents.allowed['https:'], agents.filtered['http:'], agents.filtered['https:']];
  capSockets(allAgents, options.maxSockets);
  // Names outside WEBHOOK_ALLOWED_HOSTS are resolved by c-ares (dns.Resolver), never by getaddrinfo on libuv's
  // threadpool: a hostile name that answers slowly would hold one of its 4 threads and stall the
  // process's file and crypto work. The operator's names keep the system's lookup (/etc/hosts: localhost).
  const publicLookup = onlyPublicAddresses(options.lookup ?? createResolverLookup(options.dns));

  const send = (message: WebhookMessage, stop: AbortSignal): Promise<AttemptResult> => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(message.url);
    } catch {
      return Promise.resolve({ error: 'refused: not a valid URL', durationMs: 0 });
    }
    // As at registration: without case, brackets or trailing dot, addresses in any spelling.
    const isAllowed = isOperatorAllowedHost(url.hostname, options.allowedHosts);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isAllowed)) {
      return Promise.resolve({ error: 'refused: http is only for WEBHOOK_ALLOWED_HOSTS', refused: true, durationMs: 0 });
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!isAllowed && hasEmptyLabel(host)) return Promise.resolve({ error: 'refused: not a valid URL', durationMs: 0 });
    // request-filtering-agent checks a literal too, but takes `::7f00:1` (IPv4-compatible) for public.
    if (!isAllowed && isIP(host) !== 0 && !isPublicAddress(host)) return Promise.resolve({ error: REFUSED_NOT_PUBLIC, refused: true, durationMs: 0 });
    const timestamp = Math.floor(options.now() / 1000);
    const body = Buffer.from(message.payload, 'utf8');
    const timeoutMs = Math.min(options.timeoutMs, message.timeoutMs ?? options.timeoutMs);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([timeout, stop]);
    const client = url.protocol === 'https:' ? https : http;
    const lookup = isAllowed ? options.lookup : publicLookup;
    return new Promise<AttemptResult>((resolve) => {
      /** The outcome: the status line's once it came, else the failure's. */
      let outcome: Omit<AttemptResult, 'durationMs'> | undefined;
      let durationMs = 0;
      const request = client.request(
        url,
        {
          method: 'POST',
          agent: (isAllowed ? agents.allowed : agents.filtered)[url.protocol as 'http:' | 'https:'],
          signal,
          ...(lookup ? { lookup } : {}),
          headers: {
            'content-type': 'application/json',
            'content-length': body.length,
            'user-agent': USER_AGENT,
            'webhook-id': message.messageId,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader(message.secrets, { id: message.messageId, timestamp, body: message.payload }),
          },
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          const retryAfter = response.headers['retry-after'];
          const ok = statusCode >= 200 && statusCode < 300;
          durationMs = elapsed();
          outcome = {
            statusCode,
            ...(retryAfter === undefined ? {} : { retryAfter }),
            ...(ok ? {} : { error: statusCode >= 300 && statusCode < 400 ? `redirect ${statusCode} not followed` : `answered ${statusCode}` }),
          };
          // Read to its end (the connection is then reused), or dropped past the cap; the timeout drops it too.
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > RESPONSE_BODY_CAP) request.destroy();
          });
          response.on('error', () => {});
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (outcome) return;
        durationMs = elapsed();
        outcome = describeFailure(error, { timedOut: timeout.aborted, stopped: stop.aborted, timeoutMs });
      });
      // Its connection is back with the agent, or closed: only now is its socket free for another attempt.
      request.on('close', () => resolve({ ...(outcome ?? { error: 'connection failed' }), durationMs }));
      request.end(body);
    });
  };

  return {
    send,
    close() {
      for (const agent of allAgents) agent.destroy();
    },
  };
}

/** The lookup, refusing a name any of whose addresses is not public (the code describeFailure knows). */
function onlyPublicAddresses(lookup: LookupFunction): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    lookup(hostname, lookupOptions, (error, address, family) => {
      const addresses = typeof address === 'string' ? [address] : (address ?? []).map((one) => one.address);
      if (!error && addresses.some((one) => !isPublicAddress(one))) {
        callback(Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: NOT_PUBLIC_CODE }), '', 0);
      } else {
        callback(error, address, family);
      }
    });
  };
}

/** A failed connection or exchange as a short, secret-free error text. */
function describeFailure(error: NodeJS.ErrnoException, why: { timedOut: boolean; stopped: boolean; timeoutMs: number }): Omit<AttemptResult, 'durationMs'> {
  if (why.stopped && !why.timedOut) return { error: 'aborted: the service is stopping', aborted: true };
  if (why.timedOut) return { error: `timeout: no answer within ${why.timeoutMs / 1000} s` };
  // Ours, or request-filtering-agent's: "DNS lookup <address>(…) is not allowed. Because, It is private IP address."
  if (error.code === NOT_PUBLIC_CODE || /^DNS lookup .* is not allowed/.test(error.message)) return { error: REFUSED_NOT_PUBLIC, refused: true };
  if (isDnsFailure(error)) return { error: `dns: ${error.code}` };
  if (error.code === 'EMFILE' || error.code === 'ENFILE') return { error: `connection failed: ${error.code}`, noDescriptors: true };
  if (error.code !== undefined) return { error: `connection failed: ${error.code}` };
  return { error: 'connection failed' };
}
