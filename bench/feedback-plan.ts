// What the feedback section runs, read from the bench's options: which commands, how many
// rounds, and the two commits to compare (if --old is given), or the problem with them in one line.
import { FEEDBACK_COMMANDS, type FeedbackCommand, type FeedbackOptions } from './feedback.ts';
import type { BenchValues } from './options.ts';
import { resolveCommit } from './support/checkouts.ts';

type Plan = Omit<FeedbackOptions, 'log'>;

/** `feedback`: the commands of --feedback-commands; `unit` alone otherwise (`--only unit`). */
export function feedbackPlan(args: BenchValues, feedbackSection: boolean): Plan | { problem: string } {
  const rounds = Number(args['feedback-rounds'] ?? '1');
  if (!Number.isInteger(rounds) || rounds < 1)
    return { problem: `--feedback-rounds wants a whole number of at least 1, found ${JSON.stringify(args['feedback-rounds'])}` };
  const commands = (feedbackSection ? (args['feedback-commands'] ?? 'npm-test,selftest') : 'unit').split(',') as FeedbackCommand[];
  const unknown = commands.filter((c) => !FEEDBACK_COMMANDS.includes(c));
  if (unknown.length) return { problem: `--feedback-commands takes some of ${FEEDBACK_COMMANDS.join(', ')}, found ${JSON.stringify(unknown.join(','))}` };
  if (args.old === undefined) return { commands, rounds };
  const old = resolveCommit(args.old);
  const now = resolveCommit(args.new ?? 'HEAD');
  if ('problem' in old) return { problem: `--old: ${old.problem}` };
  if ('problem' in now) return { problem: `--new: ${now.problem}` };
  return { commands, rounds, commits: { old: old.commit, new: now.commit } };
}
