/**
 * `npm run firmware -- keygen | sign` (docs/ota.md, "Signing and publishing"):
 *   keygen --out KEY.pem [--public-out PUB.pem] [--force]
 *   sign IMAGE --key KEY.pem --version V (--url URL | --base-url URL) [--sig-out FILE] [--force]
 * keygen writes an ECDSA P-256 key pair (the private key with mode 0600);
 * sign prints the four desired properties of IMAGE as one JSON object (the
 * `values` of a `properties/set`). Files are written only where an option
 * says, never over an existing one without `--force`; no key is ever printed.
 * Usage errors exit 2, failures 1, each with one line on standard error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { generateSigningKey, keyFingerprint, readPrivateKey, signImage, SigningError } from './signing.js';
import { createPublicKey } from 'node:crypto';

const usage = `usage: npm run firmware -- keygen --out KEY.pem [--public-out PUB.pem] [--force]
       npm run firmware -- sign IMAGE --key KEY.pem --version V (--url URL | --base-url URL) [--sig-out FILE] [--force]
Signs firmware images for over-the-air updates: the vendor's key, and the four fw-* properties of an image
(docs/ota.md).
  keygen        write a new ECDSA P-256 key pair: the private key to --out (mode 0600, keep it secret),
                the public key to --public-out (default: KEY.pub.pem beside it) for the boards' configuration
  sign          print IMAGE's fw-version, fw-url, fw-sha256 and fw-sig as one JSON object
  --key         the private key (PEM, PKCS#8 or SEC1, unencrypted)
  --version     fw-version: 1 to 64 of [A-Za-z0-9_.+-]; "=" first pins it (a board installs it even if lower)
  --url         fw-url: the image's http(s) URL
  --base-url    fw-url as this folder URL + "/" + IMAGE's file name (e.g. http://HOST:8080/firmware)
  --sig-out     also write fw-sig (base64) to FILE, e.g. DIR/NAME.sig beside the served image
  --force       overwrite files that exist
Nothing is printed or written beyond this; a key is never printed.`;

class UsageError extends Error {}

const versionPattern = /^=?[\w.+-]{1,64}$/;
const urlPattern = /^https?:\/\/[^\s/?#]+\/\S*$/i;
/** A name the service's firmware folder serves (host-sim/service/firmware/folder.ts). */
const servedName = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Writes `text`; refuses an existing file unless forced (`wx`). */
function writeNew(path: string, text: string, force: boolean, mode = 0o644): void {
  try {
    writeFileSync(path, text, { flag: force ? 'w' : 'wx', mode });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new SigningError(`${path} exists; give --force to overwrite it`);
    throw new SigningError(`${path}: ${code ?? (e as Error).message}`);
  }
}

function keygen(values: Record<string, string | boolean | undefined>): void {
  const out = values['out'];
  if (typeof out !== 'string') throw new UsageError('keygen: --out KEY.pem is required');
  const publicOut =
    typeof values['public-out'] === 'string' ? values['public-out'] : `${out.replace(/\.pem$/i, '')}.pub.pem`;
  if (publicOut === out) throw new UsageError('keygen: --public-out must differ from --out');
  const force = values['force'] === true;
  if (!force)
    for (const path of [out, publicOut])
      if (existsSync(path)) throw new SigningError(`${path} exists; give --force to overwrite it`);
  const pair = generateSigningKey();
  writeNew(out, pair.privatePem, force, 0o600);
  writeNew(publicOut, pair.publicPem, force);
  const fingerprint = keyFingerprint(createPublicKey(pair.publicPem));
  console.log(`wrote ${out} (private, mode 0600: keep it secret) and ${publicOut} (public, for the boards)`);
  console.log(`key sha256:${fingerprint}`);
}

async function sign(image: string, values: Record<string, string | boolean | undefined>): Promise<void> {
  const { key, version, url, 'base-url': base, 'sig-out': sigOut } = values;
  if (typeof key !== 'string') throw new UsageError('sign: --key KEY.pem is required');
  if (typeof version !== 'string') throw new UsageError('sign: --version V is required');
  if (!versionPattern.test(version))
    throw new UsageError(
      `sign: --version ${JSON.stringify(version)}: expected 1 to 64 of [A-Za-z0-9_.+-], "=" first to pin`,
    );
  if ((url === undefined) === (base === undefined)) throw new UsageError('sign: give one of --url and --base-url');
  const name = basename(image);
  if (typeof base === 'string' && !servedName.test(name))
    throw new UsageError(`sign: ${JSON.stringify(name)} is not a name the service serves; rename it or give --url`);
  const fwUrl = typeof url === 'string' ? url : `${String(base).replace(/\/+$/, '')}/${name}`;
  if (!urlPattern.test(fwUrl))
    throw new UsageError(`sign: ${JSON.stringify(fwUrl)}: expected an http(s) URL with a path`);
  let pem: string;
  try {
    pem = readFileSync(key, 'utf8');
  } catch (e) {
    throw new SigningError(
      `--key ${key}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  const signed = await signImage({ image, key: readPrivateKey(pem, key), version, url: fwUrl });
  if (typeof sigOut === 'string') writeNew(sigOut, `${signed.properties['fw-sig']}\n`, values['force'] === true);
  console.log(JSON.stringify(signed.properties, null, 2));
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        'public-out': { type: 'string' },
        key: { type: 'string' },
        version: { type: 'string' },
        url: { type: 'string' },
        'base-url': { type: 'string' },
        'sig-out': { type: 'string' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    console.log(usage);
    return;
  }
  const [command, ...rest] = positionals;
  if (command === 'keygen') {
    if (rest.length > 0) throw new UsageError(`keygen: unexpected ${JSON.stringify(rest[0])}`);
    for (const o of ['key', 'version', 'url', 'base-url', 'sig-out'] as const)
      if (values[o] !== undefined) throw new UsageError(`keygen: --${o} belongs to sign`);
    keygen(values);
  } else if (command === 'sign') {
    if (rest.length !== 1) throw new UsageError('sign: name one IMAGE');
    for (const o of ['out', 'public-out'] as const)
      if (values[o] !== undefined) throw new UsageError(`sign: --${o} belongs to keygen`);
    await sign(rest[0] as string, values);
  } else {
    throw new UsageError(
      command === undefined
        ? 'name a command: keygen or sign'
        : `unknown command ${JSON.stringify(command)}; use keygen or sign`,
    );
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const usageError = e instanceof UsageError;
  const hint = usageError ? ' (npm run firmware -- --help)' : '';
  const message = e instanceof UsageError || e instanceof SigningError ? e.message : `failed: ${(e as Error).message}`;
  process.stderr.write(`firmware: ${message}${hint}\n`);
  process.exitCode = usageError ? 2 : 1;
});
