/**
 * The claimed deliveries of one process, waiting for a send slot or being sent: at most
 * `maxInFlight` sends at once, and `perEndpoint` to one endpoint. Fair across endpoints: the slots
 * go round-robin, one endpoint's next delivery after every other waiting endpoint's, each endpoint's
 * own in the order they were claimed. Isolation: `reserved` slots are only for an endpoint that has
 * no send in flight, so endpoints that hang (each holding its slots for the attempt's timeout)
 * can take at most `maxInFlight - reserved` beyond their first: with at most `reserved` endpoints,
 * an endpoint with nothing in flight always finds a slot.
 * Each send holds one socket from its start to its end, so `maxInFlight` is the process's webhook
 * sockets (WEBHOOK_MAX_SOCKETS): a delivery that waits in its line while its endpoint is below
 * `perEndpoint` (the others, or the reservation, hold every socket it could take) is told once (`noSocket`).
 * A delivery whose lease would end before its attempt could (`canStart` says no) is dropped
 * unsent (`dropped` is told): its lease runs out and a dispatcher claims it again, so no attempt
 * ever runs past its lease. Nothing here touches the database.
 */
import type { ClaimedDelivery } from './webhook-claims.repository.js';

interface HeldDelivery {
  delivery: ClaimedDelivery;
  owner: string;
  /** When the lease ends at the earliest, on this process's monotonic clock (performance.now()). */
  leaseDeadline: number;
  /** It waited for a socket of the process (told once). */
  waitedForSocket?: boolean;
}

export interface SendQueueOptions {
  maxInFlight: number;
  perEndpoint: number;
  /** Slots only an endpoint without a send in flight may take. */
  reserved: number;
  canStart(held: HeldDelivery): boolean;
  /** Told of a delivery `canStart` refused. */
  dropped(held: HeldDelivery): void;
  /** Told of deliveries that wait for a socket of the process, not for their endpoint's own sends: each once. */
  noSocket(count: number): void;
  /**
   * Makes the attempt: settles once the receiver's part is over (its slot is then free), with
   * `recorded`, which settles once the outcome is written (the delivery is then no longer held).
   */
  send(held: HeldDelivery): Promise<{ recorded: Promise<void> }>;
  /** Told after each send, with how many deliveries the process and that endpoint still hold. */
  sent(held: { total: number; endpoint: number }): void;
}

export interface SendQueue {
  add(items: readonly HeldDelivery[]): void;
  /** Deliveries held (waiting or in flight), in all and for each endpoint that has some. */
  held(): { total: number; byEndpoint: Map<number, number> };
  /** Empties the waiting lines (the process stops); answers what was waiting, to be given back. */
  takeWaiting(): HeldDelivery[];
  /** Settles once every send in flight has. */
  drain(): Promise<void>;
}

export function createSendQueue(options: SendQueueOptions): SendQueue {
  const waiting = new Map<number, HeldDelivery[]>();
  const inFlight = new Map<number, number>();
  /** Sent, not yet recorded. */
  const recording = new Map<number, number>();
  const sends = new Set<Promise<void>>();
  let total = 0;
  let recordingTotal = 0;
  let waitingTotal = 0;

  const count = (map: Map<number, number>, id: number, by: number) => {
    const value = (map.get(id) ?? 0) + by;
    if (value === 0) map.delete(id);
    else map.set(id, value);
  };
  const heldBy = (endpointId: number) => (waiting.get(endpointId)?.length ?? 0) + (inFlight.get(endpointId) ?? 0) + (recording.get(endpointId) ?? 0);
  const heldTotal = () => total + waitingTotal + recordingTotal;

  /** Whether the endpoint may start one more send now (see the module's header). */
  const hasSlot = (endpointId: number) => {
    const flying = inFlight.get(endpointId) ?? 0;
    return flying < options.perEndpoint && total < (flying === 0 ? options.maxInFlight : options.maxInFlight - options.reserved);
  };

  /**
   * Round-robin: each pass starts at most one delivery per endpoint, and an endpoint that started
   * one goes to the back of the line of endpoints (a Map keeps insertion order).
   */
  const pump = () => {
    let started = true;
    while (started && total < options.maxInFlight) {
      started = false;
      for (const [endpointId, line] of [...waiting]) {
        if (total >= options.maxInFlight) break;
        if (!hasSlot(endpointId)) continue;
        const held = line.shift()!;
        waitingTotal--;
        waiting.delete(endpointId);
        if (line.length > 0) waiting.set(endpointId, line);
        started = true;
        if (options.canStart(held)) start(held);
        else options.dropped(held);
      }
    }
    tellWaitingForSocket();
  };

  /**
   * Each line's first delivery that waits although its endpoint is below `perEndpoint`: the
   * process's sockets (all in flight, or the rest reserved) hold it back. Told once.
   */
  const tellWaitingForSocket = () => {
    let count = 0;
    for (const [endpointId, line] of waiting) {
      const first = line[0]!;
      if (first.waitedForSocket || (inFlight.get(endpointId) ?? 0) >= options.perEndpoint) continue;
      first.waitedForSocket = true;
      count++;
    }
    if (count > 0) options.noSocket(count);
  };

  const start = (held: HeldDelivery) => {
    const endpointId = held.delivery.endpointId;
    total++;
    count(inFlight, endpointId, 1);
    const send = options.send(held).then(async ({ recorded }) => {
      // The receiver is done with it: its slot goes to the next, while the outcome is written.
      total--;
      count(inFlight, endpointId, -1);
      recordingTotal++;
      count(recording, endpointId, 1);
      pump();
      await recorded;
      recordingTotal--;
      count(recording, endpointId, -1);
      options.sent({ total: heldTotal(), endpoint: heldBy(endpointId) });
    });
    sends.add(send);
    void send.finally(() => sends.delete(send));
  };

  return {
    add(items) {
      for (const item of items) {
        const line = waiting.get(item.delivery.endpointId);
        if (line) line.push(item);
        else waiting.set(item.delivery.endpointId, [item]);
        waitingTotal++;
      }
      pump();
    },
    held() {
      const byEndpoint = new Map<number, number>();
      for (const id of new Set([...waiting.keys(), ...inFlight.keys(), ...recording.keys()])) byEndpoint.set(id, heldBy(id));
      return { total: heldTotal(), byEndpoint };
    },
    takeWaiting() {
      const all = [...waiting.values()].flat();
      waiting.clear();
      waitingTotal = 0;
      return all;
    },
    async drain() {
      while (sends.size > 0) await Promise.allSettled([...sends]);
    },
  };
}
