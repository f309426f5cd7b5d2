// A command line that parseArgs refused, in one line: its message, and for a mistyped option
// the closest option the command knows ("Did you mean --requirements?"), as mistyped profile keys
// and requirement ids get. A module of its own so that every command (and the bench) can use it
// without loading another command.
import { closest } from '../closest.ts';

export function optionProblem(error: unknown, options: Record<string, unknown>): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  const unknown = /^Unknown option '(-{1,2}[^'=]+)/.exec(message)?.[1];
  if (!unknown) return message;
  const near = closest(unknown.replace(/^-+/, ''), Object.keys(options), 1)[0];
  // parseArgs' advice about positionals after `--` does not apply: no command here takes such.
  return `Unknown option '${unknown}'${near ? `; did you mean --${near}?` : '.'}`;
}
