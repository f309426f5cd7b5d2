// `apc contracts verify | matrix | publish`: verify the consumer pacts in contracts/ against any
// target (or the reference implementation), show which consumers rely on which requirement,
// and publish the pact files to a Pact Broker. Exit codes as certify: 0 passed, 1 a contract
// failed, 2 the run could not judge (bad flags, no pact files, unreachable URL).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadCatalogue } from '../catalogue.ts';
import { contractsJunit } from '../pact/junit.ts';
import { DEFAULT_PACT_DIR, readPactDir, type PactFile } from '../pact/pact-files.ts';
import { brokerFromEnv, gitVersion, publishPacts } from '../pact/publish.ts';
import { relianceOf, renderMatrix } from '../pact/reliance.ts';
import { ContractsError, providerOf, verifiable, type InteractionResult, type PublishResults } from '../pact/verify.ts';
import { verifyPact } from '../pact/verifier-process.ts';
import { INTERFACES, profileSecrets } from '../profile/profile.ts';
import { hostingBeforeSetup } from '../discovery/discovery.ts';
import { buildProfile } from '../profile/sources.ts';
import { redactor } from '../redact.ts';
import { checkSetup } from '../run/preflight.ts';
import { referenceProfileBase, startReferenceTarget, type ReferenceTarget } from '../reference/reference-target.ts';
import { ROOT } from '../root.ts';
import { command, type CommandIo, type ValuesOf } from './command.ts';
import { targetSettings, TARGET_OPTIONS } from './target-options.ts';
import { CONTRACTS_USAGE } from './usage.ts';

export const OPTIONS = {
  ...TARGET_OPTIONS,
  pacts: { type: 'string' },
  junit: { type: 'string' },
  'publish-results': { type: 'boolean' },
  'provider-version': { type: 'string' },
  'consumer-version': { type: 'string' },
  branch: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function pactsIn(dir: string): PactFile[] {
  const pacts = readPactDir(dir);
  if (pacts.length === 0) {
    throw new ContractsError(
      `No pact files in ${dir}. The consumer tests write them: run \`npm run contracts:consumers\` (it writes contracts/pacts; \`npm test\` keeps its pacts in a temporary folder), or give --pacts DIR.`,
    );
  }
  return pacts;
}

function show(results: InteractionResult[], io: CommandIo): void {
  for (const r of results) {
    io.out.write(`${r.passed ? '✓' : '✗'} ${r.consumer} → ${r.provider}: ${r.description}${r.requirements.length ? `  [${r.requirements.join(' ')}]` : ''}\n`);
    for (const problem of r.problems) io.out.write(`    ${problem.replace(/\n/g, '\n    ')}\n`);
  }
}

/** Where and as what verification results are published: the broker from the environment, the version from git unless given. */
function publishResults(v: ContractsValues, env: NodeJS.ProcessEnv): PublishResults {
  const brokerUrl = brokerFromEnv(env);
  const git = v['provider-version'] ? undefined : gitVersion(ROOT);
  const branch = v.branch ?? git?.branch;
  return {
    brokerUrl,
    ...(env.PACT_BROKER_TOKEN ? { token: env.PACT_BROKER_TOKEN } : {}),
    providerVersion: v['provider-version'] ?? git!.version,
    ...(branch ? { branch } : {}),
  };
}

async function verify(v: ContractsValues, io: CommandIo): Promise<number> {
  const settings = targetSettings(v);
  let profile = buildProfile(settings, io.env);
  const pacts = pactsIn(resolve(v.pacts ?? DEFAULT_PACT_DIR));
  let reference: ReferenceTarget | undefined;
  try {
    if (INTERFACES.every((i) => !profile.urls[i])) {
      io.out.write('No provider URL given: verifying the in-repo reference implementation.\n');
      profile = buildProfile(settings, io.env, referenceProfileBase());
      reference = await startReferenceTarget({ mode: profile.controlPlaneMode });
      reference.apply(profile);
    }
    redactor.add(...profileSecrets(profile));
    const selected = pacts.filter((p) => verifiable(p, profile));
    if (selected.length === 0) {
      throw new ContractsError(
        `No pact names a provider you gave a URL for (control plane mode ${profile.controlPlaneMode}). The pacts name: ${pacts.map((p) => p.provider).join(', ')}.`,
      );
    }
    const ifaces = [...new Set(selected.map((p) => providerOf(p).iface))];
    // As certify: with URLs, no profile and no key, whether the agent server needs a key is asked first.
    const hosting = reference ? undefined : await hostingBeforeSetup(profile, settings, io.env);
    if (hosting) {
      profile = { ...profile, agentServerHosting: hosting.hosting };
      io.out.write(`Assumed agentServerHosting ${hosting.hosting}: ${hosting.how}.\n`);
    }
    // The same preflight as certify: a wrong URL, key or tenant is the user's setup, exit 2.
    const problems = await checkSetup(profile, ifaces, hosting?.how);
    if (problems.length > 0) {
      for (const problem of problems) io.err.write(`apc contracts: ${redactor.text(problem)}\n`);
      return 2;
    }
    const publish = v['publish-results'] ? publishResults(v, io.env) : undefined;
    const results: InteractionResult[] = [];
    for (const pact of selected) {
      io.out.write(`Verifying ${pact.consumer} → ${pact.provider} (${pact.interactions.length} interactions) at ${profile.urls[providerOf(pact).iface]}\n`);
      const verified = await verifyPact(pact, { profile, ...(publish ? { publish } : {}) });
      show(verified, io);
      results.push(...verified);
    }
    // Relative to where apc runs, as certify's reports: not into the checkout or the installed package.
    const junit = resolve(v.junit ?? join('reports', 'contracts', 'junit.xml'));
    mkdirSync(dirname(junit), { recursive: true });
    writeFileSync(junit, redactor.text(contractsJunit(results)));
    const failed = results.filter((r) => !r.passed).length;
    io.out.write(`\n${failed === 0 ? 'passed' : 'failed'}: ${results.length - failed} of ${results.length} interactions hold. JUnit: ${junit}\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    await reference?.close();
  }
}

async function publish(v: ContractsValues, io: CommandIo): Promise<number> {
  const dir = resolve(v.pacts ?? DEFAULT_PACT_DIR);
  pactsIn(dir);
  brokerFromEnv(io.env);
  const git = v['consumer-version'] ? { version: v['consumer-version'], branch: v.branch } : gitVersion(ROOT);
  const run = await publishPacts(dir, { version: git.version, branch: v.branch ?? git.branch }, io.env);
  redactor.add(...[io.env.PACT_BROKER_TOKEN, io.env.PACT_BROKER_PASSWORD].filter((s): s is string => Boolean(s)));
  io.out.write(redactor.text(run.output));
  if (run.code !== 0) io.err.write(`apc contracts publish: the broker client exited with ${run.code}.\n`);
  return run.code === 0 ? 0 : 1;
}

type ContractsValues = ValuesOf<typeof OPTIONS>;

export async function contracts(argv: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv;
  return command({ name: 'contracts', options: OPTIONS, usage: CONTRACTS_USAGE }, rest, io, async (v) => {
    if (sub === undefined || ['help', '--help', '-h'].includes(sub)) {
      io.out.write(CONTRACTS_USAGE);
      return 0;
    }
    switch (sub) {
      case 'verify':
        return await verify(v, io);
      case 'matrix':
        io.out.write(renderMatrix(relianceOf(pactsIn(resolve(v.pacts ?? DEFAULT_PACT_DIR))), loadCatalogue()));
        return 0;
      case 'publish':
        return await publish(v, io);
      default:
        throw new ContractsError(`unknown subcommand "${sub}"; use verify, matrix or publish.`);
    }
  });
}
