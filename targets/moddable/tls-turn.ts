/**
 * One TLS handshake at a time on the board (docs/moddable.md, "Heap on an
 * ESP32"). A handshake of the SDK's TLS needs about 10 KB of chunks and 6 KB of
 * slots free while it runs (documentation/network/securesocket.md); two at once
 * (the HTTP connection's and the hub's wss at boot, or after an outage) did not
 * fit the ESP32's 128 KB heap beside the agent. Every secure connect of this
 * firmware (http.ts, websocket.ts) takes its turn here: `start` runs at once when
 * no handshake is in progress, else when the ones before it have ended.
 *
 * `done` (returned, and given to `start`) ends the turn: once the handshake
 * succeeded or failed, or the connection was closed or abandoned before or
 * during it (each owner calls it on every path that ends its connect; a second
 * call does nothing). `start` must not throw: it may run inside another
 * connection's callback, when that one's turn ends. A turn never outlives its
 * owner's own bounds (the HTTP request's timeout, the hub's handshake
 * deadline), so a handshake that hangs delays the next by at most that.
 */

/** The connect handshaking (first), then those waiting, in order. */
const turns: Array<() => void> = [];

export function tlsTurn(start: (done: () => void) => void): () => void {
  const run = (): void => start(done);
  const done = (): void => {
    const at = turns.indexOf(run);
    if (at < 0) return;
    turns.splice(at, 1);
    // The one handshaking ended: the next may start.
    if (!at) turns[0]?.();
  };
  if (turns.push(run) === 1) run();
  return done;
}
