/**
 * On the wire: 32 analog channels scanned every 100 ms, every scan reported
 * (empty transmitEvents: the worst case), for 10 s of agent time, against the
 * local service on loopback through a byte-counting TCP proxy. Answers HTTP
 * requests per second and bytes per reported record, ours (batched) and a
 * naive peer's: an agent loop on the same clock reading the same pin sources,
 * deciding first (every scan is reported here, as for ours), one POST per
 * record with a numeric timestamp, through the same proxy. Its request rate is
 * counted over 2 s of agent time, not assumed.
 */
import { createServer, connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent } from '../../src/agent/agent.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import { startService, type Fixture } from '../../host-sim/service/index.js';
import { SimPins } from '../../host-sim/pins/sim-pins.js';
import { FetchHttp } from '../../targets/node/http.js';
import { MemoryStore } from '../../targets/node/store.js';
import { FakeClock } from '../../test/fakes/fake-clock.js';

const channels = 32;
const seconds = 10;

function fixture(): Fixture {
  const product = 'b0000000-0000-4000-8000-000000000001';
  const device = 'b0000000-0000-4000-8000-000000000002';
  return {
    products: [
      {
        uid: product,
        name: 'Bench board',
        enabled: true,
        buses: [],
        metrics: [],
        channels: Array.from({ length: channels }, (_, i) => ({
          uid: `c0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          key: `ch${i}`,
          name: `Channel ${i}`,
          type: 'analogInput',
          pin: i,
          scaleGain: 0.1,
          scaleOffset: -40,
          scanInterval: 100,
          transmitEvents: [],
        })),
      },
    ],
    locations: [],
    devices: [{ uid: device, key: 'bench-001', name: 'Bench', enabled: true, product, properties: {} }],
    relations: [],
    tokens: [{ token: 'bench-device-token', role: 'device', device }],
  } as unknown as Fixture;
}

/** A TCP proxy counting bytes each way. */
async function countingProxy(
  targetPort: number,
): Promise<{ server: Server; port: number; up: () => number; down: () => number }> {
  let up = 0;
  let down = 0;
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    client.on('data', (b: Buffer) => (up += b.length));
    upstream.on('data', (b: Buffer) => (down += b.length));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, up: () => up, down: () => down };
}

export interface WireFigures {
  records: number;
  requests: number;
  requestsPerS: number;
  bytesUpPerRecord: number;
  bytesTotalPerRecord: number;
  naiveRequestsPerS: number;
  /** Naive records the service accepted (2xx): all of them, or the peer's figures would flatter it. */
  naiveRecordsAccepted: number;
  naiveBytesUpPerRecord: number;
  naiveBytesTotalPerRecord: number;
}

export async function measureWire(): Promise<WireFigures> {
  const clock = new FakeClock(Date.now());
  const service = await startService({ fixture: fixture(), port: 0, now: () => clock.wallMs() });
  const proxy = await countingProxy(service.port);
  const base = `http://127.0.0.1:${proxy.port}`;
  const pins = new SimPins(clock);
  for (let i = 0; i < channels; i++) pins.setSource(i, (now) => 600 + ((now / 100 + i) % 50));
  const fetchHttp = new FetchHttp();
  let answered = 0; // HTTP requests answered (any status)
  const agent = new Agent({
    clock,
    http: {
      request: async (request) => {
        const response = await fetchHttp.request(request);
        answered++;
        return response;
      },
    },
    store: new MemoryStore(),
    logger: { log: () => undefined },
    service: { baseUrl: base, device: 'bench-001', token: 'bench-device-token' },
    providers: [new PinChannelProvider(pins)],
  });
  await agent.start();
  const upStart = proxy.up();
  const downStart = proxy.down();
  const requestsStart = answered;
  for (let t = 0; t < seconds * 1000; t += 100) {
    clock.advance(100);
    await new Promise((resolve) => setImmediate(resolve));
    while (agent.delivery === 'sending') await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const records = agent.counters.sent;
  const requests = answered - requestsStart;
  const up = proxy.up() - upStart;
  const down = proxy.down() - downStart;
  agent.stop();
  // The naive peer (see the header), counted over `naiveSeconds` of agent time.
  const naiveSeconds = 2;
  const inputs = Array.from({ length: channels }, (_, i) => pins.analogInput({ pin: i }));
  const nUp = proxy.up();
  const nDown = proxy.down();
  let naiveRequests = 0;
  let naiveRecords = 0;
  for (let t = 0; t < naiveSeconds * 1000; t += 100) {
    clock.advance(100);
    for (let i = 0; i < channels; i++) {
      const value = inputs[i]!.read() * 0.1 - 40;
      const record = { channel: `ch${i}.reported`, value, timestamp: clock.wallMs() / 1000 };
      const response = await fetch(`${base}/api/v1/states/write`, {
        method: 'POST',
        headers: { authorization: 'Bearer bench-device-token', 'content-type': 'application/json' },
        body: JSON.stringify({ device: 'bench-001', states: [record] }),
      });
      await response.arrayBuffer();
      naiveRequests++;
      if (response.ok) naiveRecords++;
    }
  }
  const naiveUp = proxy.up() - nUp;
  const naiveDown = proxy.down() - nDown;
  proxy.server.close();
  await service.close();
  return {
    records,
    requests,
    requestsPerS: requests / seconds,
    bytesUpPerRecord: up / records,
    bytesTotalPerRecord: (up + down) / records,
    naiveRequestsPerS: naiveRequests / naiveSeconds,
    naiveRecordsAccepted: naiveRecords,
    naiveBytesUpPerRecord: naiveUp / naiveRequests,
    naiveBytesTotalPerRecord: (naiveUp + naiveDown) / naiveRequests,
  };
}
