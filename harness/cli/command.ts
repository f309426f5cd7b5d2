// How every `apc` command starts and ends: read its command line (a mistyped option names the
// closest one), print its usage for --help, run, and print a mistake the user must fix (a
// UsageError, whichever room threw it) as one line after the command's name, exit 2.
import { parseArgs } from 'node:util';
import { redactor } from '../redact.ts';
import { UsageError } from '../usage-error.ts';
import { optionProblem } from './option-problem.ts';
import type { Output } from '../run/progress.ts';
import { apcCommand } from '../apc-command.ts';

/** Where a command writes, and the environment it reads. */
export interface CommandIo {
  out: Output;
  err: Output;
  env: NodeJS.ProcessEnv;
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'] & {};

/** The options a command read, typed from its option table. */
export type ValuesOf<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>['values'];

export interface Command<O extends Options> {
  /** As typed after `apc`: `certify`, `report merge`. Its first word is the `apc help` topic. */
  name: string;
  options: O;
  /** Printed for --help (when the command has that option). */
  usage: string;
  /** Whether the command takes arguments besides its options (report folders). */
  positionals?: boolean;
  /** Rewrites the arguments before they are read (a flag whose value may be left out). */
  args?: (argv: string[]) => string[];
}

/** Writes a mistake the user must fix after the command's name; the exit code of such a mistake. */
export function usageProblem(name: string, io: CommandIo, message: string): 2 {
  io.err.write(`apc ${name}: ${redactor.text(message)}\n`);
  return 2;
}

export async function command<const O extends Options>(
  c: Command<O>,
  argv: string[],
  io: CommandIo,
  run: (values: ValuesOf<O>, positionals: string[]) => number | Promise<number>,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: c.args ? c.args(argv) : argv, options: c.options, allowPositionals: c.positionals ?? false, strict: true });
  } catch (error) {
    return usageProblem(c.name, io, `${optionProblem(error, c.options)}\nRun \`${apcCommand()} help ${c.name.split(' ')[0]}\` for the options.`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.out.write(c.usage);
    return 0;
  }
  try {
    return await run(parsed.values as ValuesOf<O>, parsed.positionals);
  } catch (error) {
    if (error instanceof UsageError) return usageProblem(c.name, io, error.message);
    throw error;
  }
}
