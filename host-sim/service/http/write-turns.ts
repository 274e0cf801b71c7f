/**
 * Writes take turns (decisions 10: one token's flood must not slow another
 * device's reads). A write holds the event loop for its whole transaction
 * (better-sqlite3 is synchronous): a 100-state batch a few milliseconds. So a
 * write never runs in the turn of the event loop its request was read in: it
 * waits for that turn's check phase (`setImmediate`), after every socket the
 * loop found ready together has been read, so a read that arrived with it is
 * answered first (on a loaded machine, the service thread that waited for a
 * core finds a read and writes ready at once). Then one write runs per turn,
 * so between two writes Node reads the sockets again and answers what came in
 * (a read never waits for a turn); and the turns go round the access tokens,
 * so one token's queue of writes does not hold back another token's write.
 * The queues are bounded by the requests in flight, which the connection cap
 * bounds.
 */

interface Waiter {
  go: () => void;
}

export class WriteTurns {
  /** Access token -> its writes waiting, oldest first; the map's order is the round. */
  private readonly queues = new Map<string, Waiter[]>();
  private scheduled = false;
  /** Writes that took a turn since start. */
  waited = 0;

  /** Resolves when a write of `token` may run: in a later check phase of the event loop, its turn. */
  turn(token: string): Promise<void> {
    this.waited++;
    return new Promise<void>((go) => {
      const queue = this.queues.get(token);
      if (queue === undefined) this.queues.set(token, [{ go }]);
      else queue.push({ go });
      if (!this.scheduled) this.schedule();
    });
  }

  /** Writes waiting now. */
  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private schedule(): void {
    this.scheduled = true;
    setImmediate(() => this.next());
  }

  /** Lets the first token in the round write once, then moves it to the end of the round. */
  private next(): void {
    this.scheduled = false;
    const first = this.queues.entries().next();
    if (first.done === true) return;
    const [token, queue] = first.value;
    this.queues.delete(token);
    const waiter = queue.shift() as Waiter;
    if (queue.length > 0) this.queues.set(token, queue);
    this.schedule();
    waiter.go();
  }
}
