// `apc certify` by URL without a profile probes the target first, as `apc init` does, and those
// probes create deployments and revisions. They spend the run's budget like any test: a probe the
// budget cannot cover is not sent, what they created is settled into the run's ledger before a
// test spends it and counted in the report's "created", so "created" never passes the budget.
// Without a budget given, the default of a URL target gets room for the probes on top
// (harness/run/probe-budget.ts). What the target created is counted on its side, through a proxy.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReference, type ReferenceServer } from '../../reference-impl/index.ts';
import { startProxy, type Proxy } from '../../harness/proxy/proxy.ts';
import { PROBE_BUDGET, REMOTE_BUDGET } from '../../harness/profile/profile.ts';
import { withCertifyRequest } from '../../harness/cli/certify.ts';
import { certifyRun, type CertifyOutcome } from '../../harness/run/certify-run.ts';
import { boundedInProcess } from '../../harness/selftest/certify-in-process.ts';

const keys = [0, 1].map(() => ({ key: `apc-probe-${randomBytes(9).toString('hex')}`, tenants: [randomUUID()] }));
let server: ReferenceServer;
let proxy: Proxy;
/** What the reference created, as its answers said: 2xx creates, and each revision id a create or PATCH answered with. */
const made = { deployments: 0, revisions: new Set<string>() };

beforeAll(async () => {
  server = await startReference({ mode: 'hosted', apiKeys: keys, phaseMs: 5 });
  proxy = await startProxy(server.urls.controlPlane, {
    answer(request, answer) {
      const path = request.path.split('?')[0]!.replace(/\/+$/, '');
      const creates = request.method === 'POST' && path === '/v2/deployments';
      const patches = request.method === 'PATCH' && /^\/v2\/deployments\/[^/]+$/.test(path);
      if ((creates || patches) && answer.status >= 200 && answer.status < 300) {
        if (creates) made.deployments++;
        const latest = (JSON.parse(answer.body.toString('utf8')) as { latest_revision_id?: unknown }).latest_revision_id;
        if (typeof latest === 'string') made.revisions.add(latest);
      }
      return answer;
    },
  });
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

/**
 * A profile-less certification of the control plane behind the proxy, in this process on one
 * suite worker and not quiet (what the probes did is printed before the run); what the target
 * created during it.
 */
async function certifyByUrl(args: string[]) {
  const before = { deployments: made.deployments, revisions: made.revisions.size };
  const [own, other] = keys as [(typeof keys)[0], (typeof keys)[0]];
  const flags = ['--control-plane-url', proxy.url, '--tenant-id', own.tenants[0]!, '--other-tenant-id', other.tenants[0]!, '--interfaces', 'control-plane'];
  const run = await boundedInProcess({ env: { APC_API_KEY: own.key, APC_OTHER_API_KEY: other.key }, timeoutMs: 300_000 }, async (io, stop, reportDir) => {
    let outcome: CertifyOutcome | undefined;
    const code = await withCertifyRequest(['--reports', reportDir, '--seed', '2', ...flags, ...args], io, stop, async (request) => {
      outcome = await certifyRun({ ...request, workers: 1 });
      return outcome.code;
    });
    return { ...outcome, code, reportDir };
  });
  const target = { deployments: made.deployments - before.deployments, revisions: made.revisions.size - before.revisions };
  const status = (id: string) => run.report?.requirements.find((r) => r.id === id);
  return { run, status, target, output: `${run.stdout}\n${run.stderr}` };
}

test('without a budget, the default for a URL gets room for the probes: every probe and test is counted in "created", within the budget, and the reference is certified', async () => {
  const { run, target, output } = await certifyByUrl([]);
  const budget = { deployments: REMOTE_BUDGET.deployments! + PROBE_BUDGET.deployments, revisions: REMOTE_BUDGET.revisions! + PROBE_BUDGET.revisions };
  expect(output).toContain(
    `budget ${budget.deployments} deployments, ${budget.revisions} revisions: the default for a URL (12 deployments, 40 revisions) and 4 deployments, 6 revisions for probing the target without a profile`,
  );
  // The probes' own bill: a deployment of each source kind the hosted reference accepts, their revisions and the busyPatch probe's.
  const bill = /probing created: (\d+) deployments?, (\d+) revisions? \(budget 16 deployments, 46 revisions\)/.exec(output);
  expect(bill, output).not.toBeNull();
  const [probedDeployments, probedRevisions] = [Number(bill![1]), Number(bill![2])];
  expect(probedDeployments).toBeGreaterThan(0);
  expect(probedDeployments).toBeLessThanOrEqual(PROBE_BUDGET.deployments);
  expect(probedRevisions).toBeLessThanOrEqual(PROBE_BUDGET.revisions);
  expect(run.report?.verdict, output.slice(-3000)).toBe('certified');
  const created = run.report!.cost!.created['control-plane']!;
  // The report counts what the target made, probes included: no less, and never beyond the budget.
  expect(created.deployments).toBe(target.deployments);
  expect(created.revisions).toBe(target.revisions);
  expect(target.deployments).toBeLessThanOrEqual(budget.deployments);
  expect(target.revisions).toBeLessThanOrEqual(budget.revisions);
  // The plan the summary sets "created" beside holds the probes too: never "15 deployments (of at most 12 planned)".
  const planned = run.report!.cost!.planned['control-plane']!.creates;
  expect(created.deployments).toBeLessThanOrEqual(planned.deployments!);
  expect(created.revisions).toBeLessThanOrEqual(planned.revisions!);
  expect(planned.deployments).toBeLessThanOrEqual(budget.deployments);
}, 400_000);

test('a budget given is the whole run\'s: the probes it cannot cover are not sent, the tests without room are skipped "budget", and the run is incomplete', async () => {
  // The whole control-plane catalogue (a subset's verdict is "passed" at best): the tests that create nothing are quick.
  const { run, status, target, output } = await certifyByUrl(['--budget', 'deployments=2,revisions=4']);
  // The hosted reference accepts three source kinds: the third create did not fit, and was not sent.
  expect(output).toMatch(
    /not probed \(budget: spent: created 2 deployments, \d revisions? of the budget \(2 deployments, 4 revisions\), and POST \/v2\/deployments could create more\)/,
  );
  expect(output).not.toMatch(/budget \d+ deployments, \d+ revisions: the default for a URL/);
  expect(target.deployments).toBe(2);
  expect(target.revisions).toBeLessThanOrEqual(4);
  const created = run.report!.cost!.created['control-plane']!;
  expect(created).toEqual({ deployments: target.deployments, revisions: target.revisions });
  // The probes spent every deployment: the tests that create one are skipped, and say why.
  for (const id of ['CP-CREATE-001', 'CP-DEL-001']) {
    expect(status(id)?.status, output.slice(-3000)).toBe('skipped');
    expect(status(id)!.reason).toMatch(
      /^budget: the profile's budget \(2 deployments, 4 revisions\) is spent on other tests and on probing the target \(2 deployments, \d revisions?\)/,
    );
  }
  expect(status('CP-VER-001')?.status).toBe('passed');
  expect(run.report!.verdict).toBe('incomplete');
  expect(run.code).toBe(1);
}, 300_000);
