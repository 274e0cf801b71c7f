/**
 * `npm run firmware -- keygen | sign` as a user runs it (its bin entry, a
 * child process, a scratch folder): keygen writes a P-256 pair (the private
 * key 0600) and never overwrites unasked; sign prints the four properties,
 * whose signature a peer verifies: node:crypto, and the `openssl` CLI where it
 * is installed (`openssl dgst -sha256 -verify`, the contract's own words);
 * a key made and an image signed by openssl agree with ours the other way.
 * `--help` exits 0 and writes nothing; usage errors exit 2, failures 1, one
 * line each; no key is ever printed.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import tmp from 'tmp';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('npm run firmware (keygen, sign)', function () {
  this.timeout(60000);
  let dir: tmp.DirResult;
  beforeEach(() => (dir = tmp.dirSync({ unsafeCleanup: true })));
  afterEach(() => dir.removeCallback());
  const at = (name: string): string => join(dir.name, name);
  const run = (...args: string[]): Run => {
    const r = spawnSync(process.execPath, [join(root, 'bin', 'dds-firmware.mjs'), ...args], {
      cwd: dir.name,
      encoding: 'utf8',
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  /** No part of a PEM key's body appears in `text`. */
  const assertNoKey = (text: string, pemFile: string): void => {
    const body = readFileSync(pemFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('-----'));
    for (const line of body) assert.ok(!text.includes(line.slice(0, 24)), 'a key line was printed');
    assert.ok(!text.includes('PRIVATE KEY'));
  };

  it('--help exits 0, prints the usage and writes nothing', () => {
    const r = run('--help');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^usage: npm run firmware -- keygen --out KEY\.pem/);
    assert.equal(r.stderr, '');
    assert.deepEqual(readdirSync(dir.name), []);
  });

  it('keygen writes a P-256 pair (private 0600), prints neither key and never overwrites unasked', () => {
    const r = run('keygen', '--out', 'vendor.pem');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dir.name).sort(), ['vendor.pem', 'vendor.pub.pem']);
    assert.equal(statSync(at('vendor.pem')).mode & 0o777, 0o600);
    const pub = createPublicKey(readFileSync(at('vendor.pub.pem')));
    assert.equal(pub.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.match(r.stdout, /key sha256:[0-9a-f]{64}\n$/);
    assertNoKey(r.stdout + r.stderr, at('vendor.pem'));
    assertNoKey(r.stdout + r.stderr, at('vendor.pub.pem'));
    const before = readFileSync(at('vendor.pem'), 'utf8');
    const again = run('keygen', '--out', 'vendor.pem');
    assert.equal(again.code, 1);
    assert.equal(again.stderr, 'firmware: vendor.pem exists; give --force to overwrite it\n');
    assert.equal(readFileSync(at('vendor.pem'), 'utf8'), before);
    // The public half existing is refused before anything is written.
    const half = run('keygen', '--out', 'other.pem', '--public-out', 'vendor.pub.pem');
    assert.equal(half.code, 1);
    assert.deepEqual(readdirSync(dir.name).sort(), ['vendor.pem', 'vendor.pub.pem']);
    const forced = run('keygen', '--out', 'vendor.pem', '--force');
    assert.equal(forced.code, 0, forced.stderr);
    assert.notEqual(readFileSync(at('vendor.pem'), 'utf8'), before);
  });

  it('sign prints the four properties; node:crypto and openssl verify fw-sig over the image', function () {
    assert.equal(run('keygen', '--out', 'k.pem').code, 0);
    const image = randomBytes(100_000);
    writeFileSync(at('board-1.3.0.bin'), image);
    const r = run(
      'sign',
      'board-1.3.0.bin',
      '--key',
      'k.pem',
      '--version',
      '1.3.0',
      '--base-url',
      'http://10.0.0.2:8080/firmware/',
      '--sig-out',
      'board-1.3.0.bin.sig',
    );
    assert.equal(r.code, 0, r.stderr);
    assertNoKey(r.stdout + r.stderr, at('k.pem'));
    const p = JSON.parse(r.stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(p), ['fw-version', 'fw-url', 'fw-sha256', 'fw-sig']);
    assert.equal(p['fw-version'], '1.3.0');
    assert.equal(p['fw-url'], 'http://10.0.0.2:8080/firmware/board-1.3.0.bin');
    assert.equal(p['fw-sha256'], createHash('sha256').update(image).digest('hex'));
    const der = Buffer.from(p['fw-sig'] ?? '', 'base64');
    assert.equal(der[0], 0x30, 'a DER SEQUENCE');
    assert.equal(readFileSync(at('board-1.3.0.bin.sig'), 'utf8'), `${p['fw-sig']}\n`);
    const pub = readFileSync(at('k.pub.pem'));
    assert.ok(verify('sha256', image, { key: pub, dsaEncoding: 'der' }, der), 'node:crypto verifies');
    const flipped = Buffer.from(image);
    flipped[5000] = (flipped[5000] ?? 0) ^ 1;
    assert.ok(!verify('sha256', flipped, { key: pub, dsaEncoding: 'der' }, der), 'a flipped byte fails');
    if (!hasOpenssl) this.skip(); // the node:crypto peer above has run; openssl is not installed here
    writeFileSync(at('sig.der'), der);
    const ok = spawnSync(
      'openssl',
      ['dgst', '-sha256', '-verify', 'k.pub.pem', '-signature', 'sig.der', 'board-1.3.0.bin'],
      { cwd: dir.name, encoding: 'utf8' },
    );
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /Verified OK/);
    writeFileSync(at('flipped.bin'), flipped);
    const bad = spawnSync(
      'openssl',
      ['dgst', '-sha256', '-verify', 'k.pub.pem', '-signature', 'sig.der', 'flipped.bin'],
      { cwd: dir.name, encoding: 'utf8' },
    );
    assert.notEqual(bad.status, 0);
  });

  it('signs with a key openssl made (SEC1 PEM), and openssl signatures verify like ours', function () {
    if (!hasOpenssl) this.skip(); // needs the openssl CLI to make the key
    const gen = spawnSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ossl.pem'], {
      cwd: dir.name,
    });
    assert.equal(gen.status, 0);
    assert.match(readFileSync(at('ossl.pem'), 'utf8'), /BEGIN EC PRIVATE KEY/);
    writeFileSync(at('img.bin'), randomBytes(3000));
    const r = run(
      'sign',
      'img.bin',
      '--key',
      'ossl.pem',
      '--version',
      '=0.9.1',
      '--url',
      'https://updates.example/img.bin',
    );
    assert.equal(r.code, 0, r.stderr);
    const p = JSON.parse(r.stdout) as Record<string, string>;
    assert.equal(p['fw-version'], '=0.9.1');
    const pub = spawnSync('openssl', ['ec', '-in', 'ossl.pem', '-pubout'], { cwd: dir.name, encoding: 'utf8' }).stdout;
    const image = readFileSync(at('img.bin'));
    assert.ok(verify('sha256', image, { key: pub, dsaEncoding: 'der' }, Buffer.from(p['fw-sig'] ?? '', 'base64')));
    // The contract's recipe, `openssl dgst -sha256 -sign KEY`, makes the same kind of value.
    const theirs = spawnSync('openssl', ['dgst', '-sha256', '-sign', 'ossl.pem', 'img.bin'], { cwd: dir.name });
    assert.equal(theirs.status, 0);
    assert.ok(verify('sha256', image, { key: pub, dsaEncoding: 'der' }, theirs.stdout));
  });

  it('usage errors exit 2 and failures 1, each one line', () => {
    writeFileSync(at('img.bin'), 'x');
    writeFileSync(at('rsa.pem'), createRsaPem());
    writeFileSync(at('junk.pem'), 'not a key');
    const usage: [string[], RegExp][] = [
      [[], /name a command: keygen or sign/],
      [['flash'], /unknown command "flash"/],
      [['keygen'], /--out KEY\.pem is required/],
      [['keygen', '--out', 'a.pem', '--key', 'b.pem'], /--key belongs to sign/],
      [['sign', 'img.bin', '--version', '1'], /--key KEY\.pem is required/],
      [['sign', 'img.bin', '--key', 'k.pem', '--url', 'http://h/x'], /--version V is required/],
      [['sign', 'img.bin', '--key', 'k.pem', '--version', '1 2', '--url', 'http://h/x'], /--version "1 2": expected/],
      [['sign', 'img.bin', '--key', 'k.pem', '--version', '1'], /one of --url and --base-url/],
      [['sign', 'img.bin', '--key', 'k.pem', '--version', '1', '--url', 'ftp://h/x'], /expected an http\(s\) URL/],
      [['sign', '--key', 'k.pem'], /name one IMAGE/],
      [['sign', 'img.bin', '--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [args, message] of usage) {
      const r = run(...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
      assert.match(r.stderr, /^firmware: [^\n]*\n$/, 'one line');
    }
    const failures: [string[], RegExp][] = [
      [
        ['sign', 'img.bin', '--key', 'missing.pem', '--version', '1', '--url', 'http://h/x'],
        /--key missing\.pem: cannot read it \(ENOENT\)/,
      ],
      [
        ['sign', 'img.bin', '--key', 'junk.pem', '--version', '1', '--url', 'http://h/x'],
        /junk\.pem: not a PEM private key/,
      ],
      [
        ['sign', 'img.bin', '--key', 'rsa.pem', '--version', '1', '--url', 'http://h/x'],
        /rsa\.pem: an rsa key, expected EC P-256/,
      ],
    ];
    for (const [args, message] of failures) {
      const r = run(...args);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
      assert.match(r.stderr, /^firmware: [^\n]*\n$/, 'one line');
      assert.equal(r.stdout, '');
    }
    assert.equal(run('keygen', '--out', 'k.pem').code, 0);
    const missingImage = run('sign', 'nope.bin', '--key', 'k.pem', '--version', '1', '--url', 'http://h/x');
    assert.equal(missingImage.code, 1);
    assert.equal(missingImage.stderr, 'firmware: nope.bin: ENOENT\n');
  });
});

/** An RSA private key in PEM (a key of the wrong kind). */
function createRsaPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}
