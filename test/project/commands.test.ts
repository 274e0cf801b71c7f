/**
 * Every command as a user meets it (issue 29), taken from package.json itself
 * so that a command added later is covered too: each package bin and each npm
 * script that runs one answers `--help` on standard output with its usage and
 * a description, exits 0, writes nothing else (stderr empty, and `git status`
 * of a scratch copy unchanged, ignored files included) and answers under 1 s
 * of CPU time (the wall time is printed, and only a hang over 10 s fails: the
 * shared machine's load stretches it several times over). Help columns never run together; every command of the README
 * has a bin; output paths are options (`--out`), never positional.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  commandScripts,
  gitStatus,
  packageJson,
  root,
  runBin,
  runShell,
  scratchCopy,
  type Run,
} from './support/commands.js';

/** An option line of a help: `--flag` (or `-h, --flag`), an optional METAVAR, then two spaces or the end. */
const optionCell = /^(-\w, )?--[a-z][\w-]*( [A-Z][A-Z_|.:[\]-]*| (full\|pins))?$/;

/** The option lines whose columns run together (`--config-refresh VALUEDDS_CONFIG_REFRESHseconds`). */
function crowdedLines(help: string): string[] {
  return help
    .split('\n')
    .filter((line) => /^ {1,4}-/.test(line))
    .filter((line) => {
      const cells = line.trim().split(/ {2,}/);
      // A metavariable or an environment variable glued to the next cell: VALUEDDS_..., DDS_CONFIG_REFRESHseconds.
      return !optionCell.test(cells[0]!) || cells.some((c) => /VALUE\S|[A-Z]+_[A-Z_]*[A-Z][a-z]/.test(c));
    });
}

function assertHelp(what: string, run: Run): void {
  assert.equal(run.code, 0, `${what}: exit ${run.code}: ${run.stderr}`);
  assert.equal(run.stderr, '', `${what} wrote to standard error`);
  const lines = run.stdout.split('\n');
  assert.match(lines[0]!, /^usage: /, `${what}: ${run.stdout.slice(0, 200)}`);
  // The usage block: its first line and the forms and continuations under it (indented).
  const about = lines.slice(1).find((l) => !/^\s/.test(l));
  assert.match(about ?? '', /^[A-Z][a-z]*[ ,']/, `${what}: a line that describes the command follows the usage`);
  assert.deepEqual(crowdedLines(run.stdout), [], `${what}: help columns run together`);
  assert.ok(run.cpuMs < 1000, `${what} took ${Math.round(run.cpuMs)} ms of CPU`);
  // The wall time only guards against a hang: on the shared machine, load stretches it several times over.
  assert.ok(run.ms < 10000, `${what} took ${Math.round(run.ms)} ms`);
}

describe('the commands: --help of every bin and npm script', function () {
  this.timeout(120000);
  let scratch = '';
  let initial = '';
  let stamp = 0;
  const timings: string[] = [];

  before(() => {
    scratch = scratchCopy();
    initial = gitStatus(scratch);
    stamp = statSync(join(scratch, 'build', '.tsbuildinfo')).mtimeMs;
  });

  after(() => {
    if (timings.length > 0) process.stdout.write(`      --help (wall / CPU): ${timings.join(', ')}\n`);
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  const pkg = packageJson();
  for (const [bin, path] of Object.entries(pkg.bin)) {
    it(`bin ${bin} --help`, async () => {
      const run = await runShell(`exec node ${path} --help`, { cwd: scratch });
      timings.push(`${bin} ${Math.round(run.ms)}/${Math.round(run.cpuMs)} ms`);
      assertHelp(bin, run);
    });
  }
  for (const [name, command] of commandScripts(pkg)) {
    // What `npm run NAME -- --help` runs (npm's own start-up left out of the timing).
    it(`npm run ${name} -- --help`, async () => {
      const run = await runShell(`${command} --help`, { cwd: scratch });
      assertHelp(`npm run ${name}`, run);
    });
  }

  it('wrote nothing: git status of the scratch copy is unchanged (ignored files included), no rebuild', () => {
    assert.equal(gitStatus(scratch), initial);
    assert.equal(statSync(join(scratch, 'build', '.tsbuildinfo')).mtimeMs, stamp);
  });

  it('the bins and the commands: every README command is an npm script running a bin, with a dds-* bin entry', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Commands'), readme.indexOf('## Firmware size'));
    const named = new Set(
      [...table.matchAll(/`(?:[A-Z_]+=\S+ )*npm (?:run ([\w:-]+)|start)/g)].map((m) => m[1] ?? 'start'),
    );
    const tools = new Set(['test', 'bench', 'bench:field', 'bench:heap', 'bench:mcsim']); // the developer's runners, not commands
    const commands = new Map(commandScripts(pkg));
    const bins = new Set(Object.values(pkg.bin));
    for (const name of named) {
      if (tools.has(name)) continue;
      const command = commands.get(name);
      assert.ok(command !== undefined, `npm run ${name}: not a command of bin/ (node bin/<name>.mjs)`);
      const file = /^node (bin\/[\w-]+\.mjs)/.exec(command)![1]!;
      assert.ok(bins.has(file), `${file} (npm run ${name}) has no bin entry in package.json`);
    }
    for (const bin of Object.keys(pkg.bin)) assert.ok(readme.includes(`\`${bin}\``), `README names the bin ${bin}`);
    assert.equal(pkg.bin['dds-fleet'], 'bin/dds-fleet.mjs');
  });
});

describe('the commands: output paths are options, defaults never overwrite tracked files', function () {
  this.timeout(60000);

  it('npm run openapi: the document on standard output; a positional path is refused; --check compares', async () => {
    const plain = await runBin('dds-openapi', []);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, readFileSync(join(root, 'docs', 'openapi.json'), 'utf8'));
    const unknown = await runBin('dds-openapi', ['--output', 'x.json']);
    assert.equal(unknown.code, 2);
    const named = await runBin('dds-openapi', ['out.json']);
    assert.equal(named.code, 2);
    assert.equal(
      named.stderr,
      'openapi: unexpected argument "out.json"\n(npm run openapi -- --help lists the options)\n',
    );
    const check = await runBin('dds-openapi', ['--check', 'docs/openapi.json']);
    assert.equal(check.code, 0, check.stderr);
    const stale = await runBin('dds-openapi', ['--check', 'package.json']);
    assert.equal(stale.code, 1);
    assert.equal(
      stale.stderr,
      'openapi: --check package.json: differs from the generated document (refresh: --out package.json)\n',
    );
  });

  it('npm run bundle: --help names FIRMWARE, bundle:pins and where the bundle goes; bad input exits 2', async () => {
    const help = await runBin('dds-bundle', ['--help']);
    for (const text of ['FIRMWARE', 'bundle:pins', 'dist/moddable/main.js', '--out FILE', 'mcconfig'])
      assert.ok(help.stdout.includes(text), `bundle --help names ${text}`);
    const positional = await runBin('dds-bundle', ['out.js']);
    assert.equal(positional.code, 2);
    assert.match(positional.stderr, /^bundle: unexpected argument "out.js" \(the output path is --out FILE\)\n/);
    const firmware = await runBin('dds-bundle', ['--firmware', 'tiny']);
    assert.equal(firmware.code, 2);
    assert.match(firmware.stderr, /^bundle: --firmware tiny: expected one of setup, full, pins, ota\n/);
  });

  it('the agent and the device: help in aligned columns, the environment variable in its own', async () => {
    for (const bin of ['dds-agent', 'dds-device']) {
      const run = await runBin(bin, ['--help']);
      assert.match(run.stdout, /\n {2}--config-refresh VALUE {2,}DDS_CONFIG_REFRESH {2,}seconds between/);
      assert.match(run.stdout, /\n {2}--exit-on-auth-failure {2,}end the run/);
    }
  });
});
