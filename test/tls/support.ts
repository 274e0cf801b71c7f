/**
 * Set-up shared by the TLS tests: certificates made once per run with the
 * `openssl` command line (tests skip with a reason when it is absent), the
 * local service over HTTPS/WSS on loopback port 0, and the Node agent with
 * `--ca` (or `--insecure`) pointing at it, on a FakeClock.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fixture } from '../../host-sim/service/index.js';
import { loadFixture, startService, type RunningService } from '../../host-sim/service/index.js';
import { generatePki, hasOpenssl, type TestPki } from '../../host-sim/tls/pki.js';
import type { Logger } from '../../src/ports.js';
import { parseDeviceOptions, startSimulatedAgent, type SimulatedAgentRuntime } from '../../host-sim/hardware/agent.js';
import { FileStore } from '../../targets/node/store.js';
import { demoFixture, tempDir } from '../e2e/support/harness.js';
import type { FakeClock } from '../fakes/fake-clock.js';

export interface Pkis {
  /** localhost, 127.0.0.1, ::1: what the service presents. */
  good: TestPki;
  /** Another CA entirely (a client trusting it must refuse `good`'s server). */
  otherCa: TestPki;
  /** Signed by a CA for the name other.example only (no IP addresses). */
  wrongHost: TestPki;
}

let made: Pkis | undefined;

/** The test certificates, or undefined (after logging why) when openssl is absent. */
export function testPkis(): Pkis | undefined {
  if (made !== undefined) return made;
  if (!hasOpenssl()) {
    console.log('    (skipped: the openssl command line is not on PATH; the TLS tests need it to make certificates)');
    return undefined;
  }
  made = {
    good: generatePki(),
    otherCa: generatePki({ caName: 'Some other CA' }),
    wrongHost: generatePki({ dnsNames: ['other.example'], ipAddresses: [] }),
  };
  return made;
}

/** The demo fixture plus extra device tokens for demo-001. */
export function fixtureWithTokens(...tokens: string[]): Fixture {
  const fixture = loadFixture(demoFixture);
  const device = fixture.tokens.find((t) => t.token === 'device-token-demo-001');
  for (const token of tokens) fixture.tokens.push({ ...device!, token });
  return fixture;
}

export function startTlsService(
  clock: FakeClock,
  pki: TestPki,
  fixture: string | Fixture = demoFixture,
): Promise<RunningService> {
  return startService({
    fixture,
    port: 0,
    host: '127.0.0.1',
    now: () => clock.wallMs(),
    tls: { cert: pki.certPem, key: pki.keyPem },
  });
}

/** Writes a PEM file into `dir` and answers its path. */
export function writePem(dir: string, name: string, pem: string): string {
  const path = join(dir, name);
  writeFileSync(path, pem);
  return path;
}

export interface AgentSetup {
  url: string;
  clock: FakeClock;
  storeDir: string;
  logger: Logger;
  extraArgs?: string[];
  token?: string;
  hub?: boolean;
}

/** The Node runtime against `url`; retries every 1000 ms of fake time (outbox and hub). */
export function startTlsAgent(s: AgentSetup): Promise<SimulatedAgentRuntime> {
  const options = parseDeviceOptions(
    ['--service', s.url, '--device', 'demo-001', '--token', s.token ?? 'device-token-demo-001', ...(s.extraArgs ?? [])],
    {},
    () => '',
  );
  const retry = { nextDelayMs: () => 1000 };
  return startSimulatedAgent(options, {
    clock: s.clock,
    logger: s.logger,
    store: new FileStore(s.storeDir),
    agent: { retry },
    hub: s.hub ?? true,
    hubOptions: { retry },
  });
}

/** What each TLS test gets: the certificates and a fresh scratch directory. */
export interface TlsTestContext {
  readonly pkis: Pkis;
  readonly dir: ReturnType<typeof tempDir>;
}

/**
 * Registers the hooks every TLS suite shares: skip the suite when openssl is
 * absent, a scratch directory per test, and `cleanup` (stopping agents and
 * services) before that directory is removed.
 */
export function useTlsTest(cleanup: () => void | Promise<void> = () => undefined): TlsTestContext {
  let pkis: Pkis | undefined;
  let dir: ReturnType<typeof tempDir> | undefined;
  before(function () {
    pkis = testPkis();
    if (pkis === undefined) this.skip();
  });
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await cleanup();
    dir?.remove();
    dir = undefined;
  });
  return {
    get pkis(): Pkis {
      if (pkis === undefined) throw new Error('TLS test certificates are not made (openssl absent?)');
      return pkis;
    },
    get dir(): ReturnType<typeof tempDir> {
      if (dir === undefined) throw new Error('no scratch directory outside a test');
      return dir;
    },
  };
}
