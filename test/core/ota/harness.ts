/**
 * An updater on fakes for the update tests (portable: Node and XS): a fake
 * service with an image server behind it, fake boot slots, a fake digest and
 * signature, a shared store (a second updater on it is the board after a
 * restart), and helpers that make an image and the four properties that
 * describe it.
 */
import { ServiceClient } from '../../../src/service/client.js';
import { Updater, type UpdaterOptions } from '../../../src/ota/updater.js';
import { FakeClock, settle } from '../../fakes/fake-clock.js';
import { FakeImageServer } from '../../fakes/fake-image-server.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { digestOf, fakeImagePorts, fakeSign, FakeSlots, toBase64, toHex } from '../../fakes/fake-ota.js';
import { FakeStore } from '../../fakes/fake-store.js';

export const baseUrl = 'http://dds.test';
export const signingKey = 7;

/** A deterministic image of `length` bytes (`seed` makes another build). */
export function makeImage(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed * 2654435761;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** The four desired properties of `image` published as `name`, signed with `key`. */
export function propertiesFor(
  version: string,
  image: Uint8Array,
  name = 'b.bin',
  key = signingKey,
): Record<string, string> {
  const digest = digestOf(image);
  return {
    'fw-version': version,
    'fw-url': `${baseUrl}/firmware/${name}`,
    'fw-sha256': toHex(digest),
    'fw-sig': toBase64(fakeSign(digest, key)),
  };
}

export interface Board {
  clock: FakeClock;
  http: FakeImageServer;
  store: FakeStore;
  logger: FakeLogger;
  slots: FakeSlots;
  updater: Updater;
}

/** A board running `running`; `from` shares the service, clock, store and slots of a board before its restart. */
export function board(running: string, from?: Board, options: Partial<UpdaterOptions> = {}): Board {
  const clock = from?.clock ?? new FakeClock();
  const http = from?.http ?? new FakeImageServer();
  const store = from?.store ?? new FakeStore();
  const slots = from?.slots ?? new FakeSlots();
  const logger = new FakeLogger();
  const client = new ServiceClient(http, { baseUrl, device: 'dev', token: 'device-token' });
  const updater = new Updater({
    clock,
    http,
    store,
    logger,
    client,
    running,
    image: fakeImagePorts(slots, signingKey),
    chunkBytes: 1024,
    retry: { nextDelayMs: (attempt) => 1000 * attempt },
    ...options,
  });
  return { clock, http, store, logger, slots, updater };
}

/** Lets the download's promise chains run (many chunks), without moving the clock. */
export async function drain(): Promise<void> {
  await settle(2000);
}
