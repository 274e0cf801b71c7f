/**
 * A sample test whose promise never settles, for the XS harness's own test:
 * with no timers on XS the runner must name it and fail, not hang.
 */
describe('hang', () => {
  it('never settles', () => new Promise<void>(() => undefined));
});
