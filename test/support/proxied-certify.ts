// A certification of the reference with one interface behind a rewriting proxy: how a test shows
// what the harness makes of one deviation the reference's fault switches do not have. The proxy
// and the reference are closed when the run ends, whatever it found.
import type { InterfaceName } from '../../harness/profile/profile.ts';
import { startProxy, type ProxyRules } from '../../harness/proxy/proxy.ts';
import { referenceProfileFile, startReferenceTarget, type ReferenceStartOptions, type ReferenceTarget } from '../../harness/reference/reference-target.ts';
import type { InProcessOptions } from '../../harness/selftest/certify-in-process.ts';
import { certifyHere, type CertifyRun } from './certify.ts';

export interface ProxiedCertify {
  /** The interface whose URL in the profile is the proxy's. */
  through: InterfaceName;
  rules: ProxyRules;
  args: string[];
  /** The reference's start options beyond the hosted mode. */
  target?: Partial<ReferenceStartOptions>;
  /** Edits the profile written for the run. */
  profile?: (file: Record<string, unknown>) => Record<string, unknown>;
  timeoutMs?: number;
  /** certifyHere's run options (keptSuiteWorkers() for a file of several runs). */
  run?: InProcessOptions;
  /** What the target holds before the run: made on the reference directly, not through the proxy. */
  prepare?: (target: ReferenceTarget) => Promise<void>;
}

export interface ProxiedRun extends CertifyRun {
  /** stdout and stderr, for an assertion's message. */
  output: string;
}

export async function certifyThroughProxy(options: ProxiedCertify): Promise<ProxiedRun> {
  const target = await startReferenceTarget({ mode: 'hosted', ...options.target });
  const proxy = await startProxy(target.urls[options.through]!, options.rules);
  try {
    await options.prepare?.(target);
    const file = referenceProfileFile({ apply: target.apply, urls: { ...target.urls, [options.through]: proxy.url } });
    const run = await certifyHere(
      {
        profile: options.profile ? options.profile(file) : file,
        args: options.args,
        env: { APC_API_KEY: target.grants[0]!.key, APC_OTHER_API_KEY: target.grants[1]!.key },
        timeoutMs: options.timeoutMs ?? 200_000,
      },
      options.run,
    );
    return { ...run, output: `${run.stdout}\n${run.stderr}` };
  } finally {
    await proxy.close();
    await target.close();
  }
}
