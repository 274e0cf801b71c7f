/**
 * The agent with the bus providers, end to end: the demo fixture's Modbus
 * channels read from the simulated slave and its J1939 channels from the
 * simulated CAN bus, scaled by the agent and reported into the local service
 * on loopback; a desired setpoint written to the holding register and echoed.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Agent } from '../../src/agent/agent.js';
import { CanProvider } from '../../src/can/provider.js';
import { AgentError } from '../../src/errors.js';
import { ModbusProvider } from '../../src/modbus/provider.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';
import { SimulatedCanBus } from '../../host-sim/can/bus.js';
import { J1939Generator } from '../../host-sim/can/j1939-generator.js';
import { SimulatedModbusLink } from '../../host-sim/modbus/link.js';
import { ModbusSlave } from '../../host-sim/modbus/slave.js';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakeStore } from '../fakes/fake-store.js';
import { demoRegisterMap, repoRoot } from './support.js';

/** HTTP over Node's fetch, for this test only. */
class FetchHttp implements HttpTransport {
  async request(r: HttpRequest): Promise<HttpResponse> {
    try {
      const res = await fetch(r.url, {
        method: r.method,
        headers: r.headers,
        ...(r.body === undefined ? {} : { body: r.body }),
      });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      return { status: res.status, headers, body: await res.text() };
    } catch (e) {
      throw new AgentError('network', String(e), { cause: e });
    }
  }
}

const ioTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('agent + modbus + can providers -> local service (demo fixture)', function () {
  this.timeout(20000);
  let service: RunningService;
  let clock: FakeClock;
  let agent: Agent;
  let link: SimulatedModbusLink;

  before(async () => {
    clock = new FakeClock(Date.UTC(2026, 0, 1));
    service = await startService({
      fixture: join(repoRoot, 'host-sim/service/fixtures/demo.json'),
      now: () => clock.wallMs(),
    });
    link = new SimulatedModbusLink(new ModbusSlave(demoRegisterMap()), clock);
    const canBus = new SimulatedCanBus(clock);
    new J1939Generator(canBus, clock).start();
    const logger = new FakeLogger();
    agent = new Agent({
      clock,
      http: new FetchHttp(),
      store: new FakeStore(),
      logger,
      service: { baseUrl: service.url, device: 'demo-001', token: 'device-token-demo-001' },
      providers: [
        new ModbusProvider({ serial: link, clock, logger, ports: { rs485: { port: 'uart2' } } }),
        new CanProvider({ can: canBus, clock, logger }),
      ],
      retry: { nextDelayMs: () => 1000 },
      batch: { maxAgeMs: 200 },
    });
    await agent.start();
  });

  after(async () => {
    agent.stop();
    await service.close();
  });

  async function lastStates(channels: string): Promise<Map<string, unknown>> {
    const res = await fetch(`${service.url}/api/v1/states/read/last?device=demo-001&channels=${channels}`, {
      headers: { authorization: 'Bearer admin-token-demo' },
    });
    const records = (await res.json()) as { channel: string; value?: unknown; error?: number }[];
    return new Map(records.map((r) => [r.channel.split(':').pop() ?? '', r.value ?? r.error]));
  }

  async function runUntil(done: (s: Map<string, unknown>) => boolean, channels: string): Promise<Map<string, unknown>> {
    let states = new Map<string, unknown>();
    for (let step = 0; step < 40; step++) {
      await clock.advanceAsync(250);
      for (let i = 0; i < 5; i++) await ioTurn();
      states = await lastStates(channels);
      if (done(states)) return states;
    }
    return states;
  }

  it('reports the Modbus and J1939 channels, scaled', async () => {
    const keys = ['flow', 'total', 'pump', 'setpoint', 'pressure', 'engineSpeed', 'coolantTemp'];
    const states = await runUntil(
      (s) => keys.every((k) => s.has(`${k}.reported`)),
      keys.map((k) => `${k}.reported`).join(','),
    );
    assert.equal(states.get('flow.reported'), 12.5);
    assert.equal(states.get('total.reported'), 123456.75);
    assert.equal(states.get('pump.reported'), true);
    assert.equal(states.get('setpoint.reported'), 50);
    assert.equal(states.get('pressure.reported'), 2.53);
    const rpm = states.get('engineSpeed.reported');
    assert.ok(typeof rpm === 'number' && rpm >= 800 && rpm <= 1800, `engine speed ${String(rpm)}`);
    assert.equal(states.get('coolantTemp.reported'), 20);
  });

  it('writes a desired setpoint to the holding register and echoes the value read back', async () => {
    const res = await fetch(`${service.url}/api/v1/states/write`, {
      method: 'POST',
      headers: { authorization: 'Bearer admin-token-demo', 'content-type': 'application/json' },
      body: JSON.stringify({ device: 'demo-001', states: [{ channel: 'setpoint.desired', value: 777 }] }),
    });
    assert.equal(res.status, 200);
    const resync = agent.resyncDesired(); // reads the desired state, then writes over the simulated bus
    const states = await runUntil((s) => s.get('setpoint.reported') === 777, 'setpoint.reported');
    await resync;
    assert.equal(states.get('setpoint.reported'), 777);
    assert.equal(link.endpoint.slave.device(1).holdingRegisters.get(20), 777);
  });
});
