/**
 * The messages quoted in the docs exist in the code, so the docs cannot drift
 * (issue 29: docs/troubleshooting.md quoted a line no code wrote). The
 * quoting convention (docs/troubleshooting.md, first paragraph):
 *
 * - a log line is a code span starting with its level: `warn config: not read
 *   (start) reason="..."`: the message (up to the first ` key=` field) must be
 *   what a logger call of the code writes, and each field key must be written
 *   by the same file;
 * - in docs/troubleshooting.md, the code span that opens a bullet is a message
 *   the code writes (a log message, a command's error line with or without its
 *   `service: `-style prefix);
 * - `...` stands for text left out: at the end, the rest of the message; inside,
 *   a value the code fills in (where the code has a `${...}`).
 *
 * The code's messages are its string and template literals (src/, targets/,
 * host-sim/, bin/), read with the TypeScript parser; a template's `${...}`
 * matches any text in the quote.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { root } from './support/commands.js';

interface Literal {
  file: string;
  /** The literal's text as pieces: strings, and `null` for each `${...}`. */
  parts: Array<string | null>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function literalsOf(path: string): Literal[] {
  const file = relative(root, path);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out: Literal[] = [];
  /** The pieces of a string expression: literals, templates and `+` of them; anything else is a hole. */
  const partsOf = (node: ts.Node): Array<string | null> => {
    // A line's end is not part of the message.
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text.replace(/\n+$/, '')];
    if (ts.isTemplateExpression(node)) {
      return [node.head.text, ...node.templateSpans.flatMap((span) => [null, span.literal.text.replace(/\n+$/, '')])];
    }
    if (ts.isParenthesizedExpression(node)) return partsOf(node.expression);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      return [...partsOf(node.left), ...partsOf(node.right)];
    }
    return [null];
  };
  const visit = (node: ts.Node): void => {
    // `'hub: ' + state`: a concatenation with a string is one message with a hole.
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const parts = partsOf(node);
      if (parts.some((p) => p !== null)) out.push({ file, parts });
    }
    const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
    if (literal || ts.isTemplateExpression(node)) out.push({ file, parts: partsOf(node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const literals = ['src', 'targets', 'host-sim', 'bin'].flatMap((d) => sourceFiles(join(root, d))).flatMap(literalsOf);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A regex of the texts a literal can produce, or any beginning of them when `prefix` (the quote ended with
 * `...`): each character and each hole optional from there on.
 */
const compiled = new Map<string, RegExp>();

function literalRegex(parts: ReadonlyArray<string | null>, prefix: boolean): RegExp {
  const key = `${prefix ? 1 : 0}${JSON.stringify(parts)}`;
  let regex = compiled.get(key);
  if (regex === undefined) compiled.set(key, (regex = buildRegex(parts, prefix)));
  return regex;
}

function buildRegex(parts: ReadonlyArray<string | null>, prefix: boolean): RegExp {
  const tokens = parts.flatMap((p) => (p === null ? [null] : [...p].map(escape)));
  if (!prefix) return new RegExp(`^${tokens.map((t) => t ?? '.+?').join('')}$`, 's');
  // The beginnings: the tokens up to the sixth letter of fixed text, then each token optional from there on
  // (a literal that starts with holes is matched past some of its text, else it would match any quote).
  let first = 0;
  for (let letters = 0; first < tokens.length && letters < 6; first++) {
    if (tokens[first] !== null && /[a-zA-Z]/.test(tokens[first]!)) letters++;
  }
  let optional = '';
  for (let i = tokens.length - 1; i >= first; i--) optional = `(?:${tokens[i] ?? '.+?'}${optional})?`;
  const start = tokens.slice(0, first).map((t) => t ?? '.+?');
  return new RegExp(`^${start.join('')}${optional}$`, 's');
}

/** The literals that can write `quote` (`...` at its end: any continuation; inside: a filled-in value). */
function writersOf(quote: string): Literal[] {
  const prefix = quote.endsWith('...');
  const text = (prefix ? quote.slice(0, -3) : quote).trimEnd();
  const pieces = text.split('...');
  return literals.filter((l) => {
    // A message is a line: usage texts and other long literals are not what the docs quote.
    if (l.parts.reduce((n, p) => n + (p?.length ?? 2), 0) > 300) return false;
    // Nor a literal of holes and punctuation (`${a}: ${b}`), which would match any quote.
    const letters = l.parts.join('').replace(/[^a-zA-Z]/g, '').length;
    if (letters < 3 || (l.parts[0] === null && letters < 6)) return false;
    const regex = literalRegex(l.parts, prefix);
    if (pieces.length === 1) return regex.test(text);
    // A `...` inside the quote stands where the literal has a hole: try the hole's text as the quote's.
    return l.parts.includes(null) && regex.test(pieces.join('VALUE'));
  });
}

/** A command's error line: its prefix (runCommand's `service: `, ...) and the message the code writes. */
const commandPrefix = /^(service|npm start|nmea|bundle|fleet|openapi|agent|device): /;

function writersOfMessage(quote: string): Literal[] {
  const direct = writersOf(quote);
  if (direct.length > 0 || !commandPrefix.test(quote)) return direct;
  return writersOf(quote.replace(commandPrefix, ''));
}

interface Quote {
  doc: string;
  line: number;
  text: string;
  kind: 'log' | 'message';
}

function quotesOf(doc: string): Quote[] {
  const text = readFileSync(join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, (block) =>
    block.replace(/[^\n]/g, ' '),
  );
  const out: Quote[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const span = m[1]!;
    if (/^(debug|info|warn|error) +\S/.test(span)) out.push({ doc, line: lineOf(m.index), text: span, kind: 'log' });
  }
  if (doc.endsWith('troubleshooting.md')) {
    for (const m of text.matchAll(/^- `([^`\n]+)`/gm)) {
      const span = m[1]!;
      if (!/^(debug|info|warn|error) /.test(span))
        out.push({ doc, line: lineOf(m.index), text: span, kind: 'message' });
    }
  }
  return out;
}

const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const quotes = docs.flatMap(quotesOf);

/** Splits a quoted log line into its message and its field keys (`key=value`, values quoted or bare). */
function splitLogLine(text: string): { message: string; keys: string[] } {
  const body = text.replace(/^(debug|info|warn|error) +/, '');
  const first = /\s[a-zA-Z]+=/.exec(body);
  const message = first === null ? body : body.slice(0, first.index);
  const keys = [...body.slice(message.length).matchAll(/\s([a-zA-Z]+)=/g)].map((k) => k[1]!);
  return { message: message.trim(), keys };
}

describe('docs: every quoted log line and message exists in the code', () => {
  it('troubleshooting.md quotes log lines with their level (the convention is in use)', () => {
    const own = quotes.filter((q) => q.doc === 'docs/troubleshooting.md');
    assert.ok(own.filter((q) => q.kind === 'log').length >= 20, `${own.length} quotes`);
  });

  for (const doc of docs) {
    const own = quotes.filter((q) => q.doc === doc);
    if (own.length === 0) continue;
    it(`${doc}: ${own.length} quoted lines`, () => {
      const missing: string[] = [];
      for (const q of own) {
        if (q.kind === 'message') {
          if (writersOfMessage(q.text).length === 0) missing.push(`${q.doc}:${q.line}: \`${q.text}\``);
          continue;
        }
        const { message, keys } = splitLogLine(q.text);
        const writers = writersOf(message);
        if (writers.length === 0) {
          missing.push(`${q.doc}:${q.line}: no code writes the message of \`${q.text}\``);
          continue;
        }
        const files = new Set(writers.map((w) => w.file));
        for (const key of keys) {
          const written = [...files].some((f) => {
            const code = readFileSync(join(root, f), 'utf8');
            // logFailure (src/errors.ts) adds the failure's `reason`.
            return new RegExp(`\\b${key}\\b\\s*[:,}]`).test(code) || (key === 'reason' && code.includes('logFailure('));
          });
          if (!written)
            missing.push(
              `${q.doc}:${q.line}: field ${key}= of \`${q.text}\` is not written by ${[...files].join(', ')}`,
            );
        }
      }
      assert.deepEqual(missing, []);
    });
  }

  it('the check can fail: a made-up line, a wrong field, a changed word are caught', () => {
    const show = (quote: string): string[] =>
      writersOfMessage(quote).map((l) => `${l.file}: ${JSON.stringify(l.parts)}`);
    assert.deepEqual(show('sender: token refused status=401'), [], 'the old quote of issue 29');
    assert.ok(writersOf('config: not read (start)').length > 0, 'a template hole matches a value');
    assert.ok(writersOf('config: token refused; set the right token and restart').length > 0);
    assert.ok(writersOf('outbox: store write failed...').length > 0, 'a quote ending in ... is a beginning');
    assert.deepEqual(show('outbox: store write failure...'), []);
    assert.ok(writersOfMessage('service: --port 8080: EADDRINUSE, taken by another program...').length > 0);
    assert.deepEqual(show('service: --port 8080: EADDRINUSE, port taken'), []);
    assert.deepEqual(splitLogLine('warn config: not read (start) reason="no response" status=401'), {
      message: 'config: not read (start)',
      keys: ['reason', 'status'],
    });
  });
});
