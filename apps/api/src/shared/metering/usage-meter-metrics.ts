import { Counter, Gauge, type Registry } from 'prom-client';

/** The meter's Prometheus metrics, in the API's registry. */
export class UsageMeterMetrics {
  readonly written: Counter;
  readonly dropped: Counter<'reason'>;
  readonly writeFailures: Counter;

  /** Read when the metrics are scraped; the meter points it at its buffer. */
  bufferedNow: () => number = () => 0;

  constructor(registry: Registry) {
    const buffered = () => this.bufferedNow();
    this.written = new Counter({
      name: 'agentdesk_usage_events_written_total',
      help: 'Metered model calls stored (a retried row that was already stored is not counted again)',
      registers: [registry],
    });
    this.dropped = new Counter({
      name: 'agentdesk_usage_events_dropped_total',
      help: 'Metered model calls lost: buffer full while the database could not be written, or unwritable at shutdown',
      labelNames: ['reason'] as const,
      registers: [registry],
    });
    this.writeFailures = new Counter({
      name: 'agentdesk_usage_write_failures_total',
      help: 'Failed batch writes of metered model calls (each is retried with backoff)',
      registers: [registry],
    });
    new Gauge({
      name: 'agentdesk_usage_events_buffered',
      help: 'Metered model calls waiting in memory to be written',
      registers: [registry],
      collect() {
        this.set(buffered());
      },
    });
  }
}
