/**
 * Counts added to a prom-client counter when it is read, instead of at every increment:
 * prom-client joins and hashes the labels object of every `inc`; a tally is one addition. The counter's `collect` (run by prom-client
 * before every read: a scrape, the cluster's aggregation) adds what was tallied since the last
 * read, so what is read is what `inc` would have given.
 *
 * Bounded by its caller: one tally per series, and each caller makes tallies only for label
 * values it bounds (the service's operations, statuses, capped key ids).
 */
import type { Counter, LabelValues } from 'prom-client';

interface Tally<L extends string> {
  labels: LabelValues<L>;
  pending: number;
  count: () => void;
}

export class Tallies<L extends string> {
  private readonly bySeries = new Map<string, Tally<L>>();

  /** The tally of one series (`series` names its label values, one name per series): each call counts one. */
  of(series: string, labels: LabelValues<L>): () => void {
    let tally = this.bySeries.get(series);
    if (tally === undefined) {
      const made: Tally<L> = {
        labels,
        pending: 0,
        count: () => {
          made.pending++;
        },
      };
      this.bySeries.set(series, (tally = made));
    }
    return tally.count;
  }

  /** Adds the counts since the last call to `counter`; its `collect` calls this. */
  addTo(counter: Counter<L>): void {
    for (const tally of this.bySeries.values()) {
      if (tally.pending === 0) continue;
      counter.inc(tally.labels, tally.pending);
      tally.pending = 0;
    }
  }
}
