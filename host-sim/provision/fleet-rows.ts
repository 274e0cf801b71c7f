/**
 * `--from-fleet FILE`: the next unused row of a fleet token file (a CSV of
 * `key,token` lines, docs/fleet.md; a `key,token` header, blank lines and `#`
 * comments allowed), and marking it used once the board took it. A used row
 * becomes a comment, `# provisioned <ISO time> key,token`, so the file stays a
 * valid fleet token file and the next run takes the next row. The file is
 * rewritten whole through a temporary file and a rename.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { AgentError } from '../../src/errors.js';

export interface FleetRow {
  key: string;
  token: string;
  /** Line index in the file. */
  line: number;
}

/** The first row not yet used; AgentError `config.invalid` naming the file and line when it is not a token file. */
export function nextRow(path: string, text = readFileSync(path, 'utf8')): FleetRow {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length !== 2 || fields[0] === '' || fields[1] === '')
      throw new AgentError('config.invalid', `${path} line ${i + 1}: expected "key,token"`);
    const [key, token] = fields as [string, string];
    if (key.toLowerCase() === 'key' && token.toLowerCase() === 'token') continue;
    return { key, token, line: i };
  }
  throw new AgentError('config.invalid', `${path}: no unused row left (every row is marked provisioned)`);
}

/** Marks `row` used: its line becomes `# provisioned <atIso> <line>`. */
export function markUsed(path: string, row: FleetRow, atIso: string): void {
  const text = readFileSync(path, 'utf8');
  const lines = text.split(/(?<=\n)/);
  const line = lines[row.line];
  if (line === undefined || !line.includes(row.key))
    throw new AgentError('store', `${path}: line ${row.line + 1} changed meanwhile; mark it by hand`);
  lines[row.line] = `# provisioned ${atIso} ${line}`;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, lines.join(''), { mode: 0o600 });
  renameSync(temporary, path);
}
