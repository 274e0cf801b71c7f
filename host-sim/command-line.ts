/**
 * The house style of the project's commands (docs/troubleshooting.md, "Commands"):
 * options read with `node:util` parseArgs, and one error style for all of them.
 * A usage error (a bad option or value) is a `UsageError`: one line naming the
 * option, then a one-line hint, exit 2. A runtime failure (a taken port, a path
 * that cannot be opened, an unreachable host) is any other error: one line
 * naming the option, path or host with the fix when there is one, exit 1, and
 * no usage. `--help` prints the usage on standard output and exits 0.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Bad command-line input: one line naming the option (exit 2). */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs, strict, its errors turned into one-line UsageErrors that name the option. */
export function readCommandLine<O extends Options>(argv: readonly string[], options: O, positionals = 0) {
  // `--port -1`: a negative number is the option's value (parseArgs would call it ambiguous), so the
  // option's own check names what is wrong with it.
  const args: string[] = [];
  for (const arg of argv) {
    const last = args[args.length - 1];
    const takesValue = last !== undefined && /^--[^=]+$/.test(last) && options[last.slice(2)]?.type === 'string';
    if (takesValue && /^-\d/.test(arg)) args[args.length - 1] = `${last}=${arg}`;
    else args.push(arg);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const option = /'(-[^' ]+)/.exec(message)?.[1];
    const code = (e as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${option ?? ''}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      // `--port -1`: parseArgs calls a value that starts with '-' ambiguous; `--port=-1` is the way to pass one.
      if (/ambiguous/.test(message))
        throw new UsageError(
          `${option ?? 'an option'} needs a value (a value starting with "-": ${option ?? '--option'}=VALUE)`,
        );
      throw new UsageError(`${option ?? 'an option'} needs a value`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError(`unexpected argument "${/'([^']*)'/.exec(message)?.[1] ?? ''}"`);
    }
    throw new UsageError(message.split('\n')[0] ?? message);
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals] ?? ''}"`);
  }
  return parsed;
}

/** A whole number from 0 to 65535, or a UsageError naming the option. */
export function portOption(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`${flag} must be a whole number from 0 to 65535, got "${text}"`);
  }
  return Number(text);
}

export interface Command {
  /** How the user typed it, e.g. `npm run service --`; error lines start with its short name. */
  name: string;
  /** The prefix of its error lines, e.g. `service`. */
  prefix: string;
}

/** The one-line hint under a usage error. */
export function hintOf(command: Command): string {
  return `(${command.name} --help lists the options)`;
}

/**
 * Runs a command's main: its resolved number is the exit code; a UsageError
 * exits 2 with the hint, any other error exits 1 with its one line.
 */
export function runCommand(command: Command, main: () => Promise<number | undefined>): void {
  main().then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (e: unknown) => {
      const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
      const usage = e instanceof UsageError;
      process.stderr.write(`${command.prefix}: ${message}\n${usage ? hintOf(command) + '\n' : ''}`);
      process.exit(usage ? 2 : 1);
    },
  );
}
