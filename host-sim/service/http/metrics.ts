/**
 * The service's Prometheus metrics (decisions 10: `GET /metrics`), through
 * prom-client on a registry of its own per service: requests by route, method
 * and status, request durations, open hub connections, records written,
 * storage size, and the fair-share refusals (429, 503). Durations are measured
 * with the monotonic `performance.now()`: they are observations, not logic.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface MetricSources {
  hubConnections(): number;
  storageBytes(): number;
  openConnections(): number;
  connectionsRefused(): number;
  rateLimited(): number;
  rateLimitedHeld(): number;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly durations: Histogram<'route' | 'method'>;
  private readonly records: Counter<'kind'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'dds_http_requests_total',
      help: 'HTTP requests answered, by route, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'dds_http_request_duration_seconds',
      help: 'Time from a request to its answer, by route and method',
      labelNames: ['route', 'method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.records = new Counter({
      name: 'dds_records_written_total',
      help: 'State and measurement records stored',
      labelNames: ['kind'],
      registers,
    });
    const gauge = (name: string, help: string, read: () => number): void =>
      void new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('dds_hub_connections', 'Open hub (WebSocket) connections', sources.hubConnections);
    gauge('dds_storage_bytes', 'Size of the SQLite database (pages in use x page size)', sources.storageBytes);
    gauge('dds_open_connections', 'Open TCP connections (HTTP and hub)', sources.openConnections);
    gauge('dds_connections_refused', 'Connections answered 503 because the cap was reached, since start', () =>
      sources.connectionsRefused(),
    );
    gauge('dds_rate_limited', 'Requests answered 429 (a token over its budget), since start', sources.rateLimited);
    gauge(
      'dds_rate_limited_held',
      'Of those, 429s held until the Retry-After window ended (the token kept ignoring it), since start',
      sources.rateLimitedHeld,
    );
  }

  /** Counts one answered request; `route` is the declared path (or `dashboard`, `other`). */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.durations.observe({ route, method }, seconds);
  }

  recordsWritten(kind: 'states' | 'measurements', count: number): void {
    this.records.inc({ kind }, count);
  }

  /** The text exposition format (and its media type). */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
