/**
 * Fixture files for portable tests. The host installs a reader before the tests
 * run: on Node, test/setup/node-setup.ts reads from test/fixtures/; on XS, the
 * runner (test/xs/run.mjs) preloads the files the tests name.
 */
type FixtureReader = (path: string) => string;

/** Text of `test/fixtures/<path>`. */
export function readFixture(path: string): string {
  const reader = (globalThis as { __readFixture?: FixtureReader }).__readFixture;
  if (reader === undefined) throw new Error('no fixture reader installed on this host');
  return reader(path);
}
