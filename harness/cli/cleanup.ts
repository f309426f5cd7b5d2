// `apc cleanup`: lists what earlier runs left on a target (every resource whose name carries a run
// prefix) and, with --yes, deletes it. Same target options as `apc certify` (target-options.ts).
import { INTERFACES, profileSecrets } from '../profile/profile.ts';
import { buildProfile } from '../profile/sources.ts';
import { redactor } from '../redact.ts';
import { LeftoverSweep, runIdIn } from '../run/leftovers.ts';
import { command, type CommandIo } from './command.ts';
import { targetSettings, TARGET_OPTIONS } from './target-options.ts';
import { CLEANUP_USAGE } from './usage.ts';
import { UsageError } from '../usage-error.ts';
import { apcCommand } from '../apc-command.ts';

export const OPTIONS = {
  ...TARGET_OPTIONS,
  run: { type: 'string' },
  yes: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function cleanup(argv: string[], io: CommandIo): Promise<number> {
  return command({ name: 'cleanup', options: OPTIONS, usage: CLEANUP_USAGE }, argv, io, async (values) => {
    if (values.run !== undefined && runIdIn(values.run) !== values.run) {
      throw new UsageError(`--run: expected a run id such as apc-3f9a1c (the prefix of the run's resources), found ${JSON.stringify(values.run)}.`);
    }
    const profile = buildProfile(targetSettings(values), io.env);
    redactor.add(...profileSecrets(profile));
    const targets = INTERFACES.filter((i) => i !== 'experiment-upload' && profile.urls[i]);
    if (targets.length === 0) throw new UsageError(`no control plane or agent server URL was given (see \`${apcCommand()} help cleanup\`).`);

    const sweep = new LeftoverSweep(profile);
    const { found, problems } = await sweep.scan(values.run);
    const scope = values.run ? `of run ${values.run}` : 'of any run (names starting with apc-)';
    io.out.write(`apc cleanup · resources ${scope} on ${targets.map((i) => `${i} ${profile.urls[i]}`).join(', ')}\n`);
    for (const l of found) io.out.write(`  ${l.kind.padEnd(10)} ${l.name.padEnd(48)} ${l.id}  (run ${l.runId})\n`);
    for (const p of problems) io.err.write(`apc cleanup: ${redactor.text(p)}\n`);
    if (found.length === 0) io.out.write('  nothing left\n');
    if (!values.yes) {
      if (found.length > 0) io.out.write(`${found.length} resource(s) found; dry run: run again with --yes to delete them.\n`);
      return problems.length > 0 ? 1 : 0;
    }
    const failures = await sweep.deleteAll(found);
    for (const f of failures) io.err.write(`apc cleanup: ${redactor.text(f)}\n`);
    io.out.write(`${found.length - failures.length} of ${found.length} resource(s) deleted.\n`);
    return problems.length + failures.length > 0 ? 1 : 0;
  });
}
