// `apc init`: probe a target with cheap requests and write a commented profile for `apc certify`.
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { applyDiscovery } from '../discovery/discovery.ts';
import { billLine, discoverWithinBudget } from '../discovery/within-budget.ts';
import { INTERFACES, profileSecrets, REMOTE_BUDGET } from '../profile/profile.ts';
import { buildProfile } from '../profile/sources.ts';
import { assumptionLines, profileYaml } from '../profile/writer.ts';
import { redactor } from '../redact.ts';
import { preflight, problemLine } from '../run/preflight.ts';
import { command, type CommandIo } from './command.ts';
import { ADDRESS_OPTIONS, targetSettings } from './target-options.ts';
import { INIT_USAGE } from './usage.ts';
import { UsageError } from '../usage-error.ts';
import { apcCommand } from '../apc-command.ts';

export const OPTIONS = {
  ...ADDRESS_OPTIONS,
  'request-timeout-ms': { type: 'string' },
  budget: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function init(argv: string[], io: CommandIo): Promise<number> {
  return command({ name: 'init', options: OPTIONS, usage: INIT_USAGE }, argv, io, async (v) => {
    const out = v.out ?? 'apc-profile.yaml';
    if (existsSync(out) && !v.force) throw new UsageError(`${out} exists; give --out FILE or --force to overwrite it.`);
    // Only the address options and the request timeout are init's: targetSettings maps them as certify does.
    const profile = buildProfile({ ...targetSettings(v), ...(v.budget !== undefined ? { budget: v.budget } : {}) }, { ...io.env, APC_PROFILE: '' });
    // A target by URL gets the default budget, as certify gives it (harness/run/plan.ts).
    profile.budget ??= { ...REMOTE_BUDGET };
    redactor.add(...profileSecrets(profile));
    const interfaces = INTERFACES.filter((i) => profile.urls[i]);
    if (interfaces.length === 0) throw new UsageError('give the URL of at least one interface (--control-plane-url, --agent-server-url, --tracing-url).');
    // Before discovery says whether the agent server wants a key, it is asked without one if none was given.
    const asking = { ...profile, agentServerHosting: profile.apiKey ? profile.agentServerHosting : ('self-run' as const) };
    const problems = (await preflight(asking, interfaces)).filter((r) => r.state !== 'ready');
    if (problems.length > 0) {
      throw new UsageError(`cannot probe the target:\n${problems.map((r) => `  - ${problemLine(r)}\n`).join('')}`);
    }
    const runId = `apc-${randomBytes(4).toString('hex').slice(0, 6)}`;
    const modeGiven = v['control-plane-mode'] !== undefined || io.env.APC_CONTROL_PLANE_MODE !== undefined;
    const { found, exchanges } = await discoverWithinBudget({ profile, runId, modeGiven });
    const discovered = applyDiscovery(profile, found);
    writeFileSync(out, profileYaml(discovered, found, new Date().toISOString()));
    io.out.write(`apc init · run ${runId} · probed ${interfaces.join(', ')} (everything it made is deleted again)\n`);
    io.out.write(`  ${billLine(exchanges, profile)}\n`);
    for (const line of assumptionLines(discovered, found)) io.out.write(`  ${redactor.text(line)}\n`);
    io.out.write(`Wrote ${out}. Next: ${apcCommand()} certify --profile ${out}\n`);
    return 0;
  });
}

