// The harness's own cost: the rate of POST /v2/deployments requests the harness sends while the
// create property suites run (counted in the reference's request log), divided by what autocannon
// reaches on the same endpoint with a valid create body in the same run.
import { DEPLOYMENT } from './support/bodies.ts';
import { load, round } from './support/load.ts';
import { runApc } from './support/apc-process.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceProcess } from './support/reference-process.ts';

export interface OverheadFigures {
  requirements: string;
  harnessRequests: number;
  harnessPerSecond: number;
  /** Every request the harness sent during the run (reads, deletes, refusals too), per second. */
  allRequestsPerSecond: number;
  /** autocannon at 1 connection (the harness runs one property case at a time) and at the profile's default concurrency, 4. */
  autocannonPerSecond: { c1: number; c4: number };
  ratio: { c1: number; c4: number };
}

const PATH = '/v2/deployments';

export async function harnessOverhead(seconds: number): Promise<OverheadFigures> {
  const ref = await startReferenceProcess({ log: true });
  const reports = mkdtempSync(join(tmpdir(), 'apc-bench-'));
  try {
    const [g1, g2] = ref.grants;
    const requirements = 'CP-CREATE-*';
    await runApc([
      'certify',
      ...['--control-plane-url', ref.urls.controlPlane, '--api-key', g1.key, '--tenant-id', g1.tenant, '--other-api-key', g2.key, '--other-tenant-id', g2.tenant],
      ...['--requirements', requirements, '--budget', 'none', '--quiet', '--reports', reports],
    ]);
    const harnessLog = [...ref.requestLog];
    const creates = harnessLog.filter((r) => r.method === 'POST' && r.url === PATH);
    if (creates.length < 2) throw new Error(`the harness sent ${creates.length} POST ${PATH} requests; expected a property suite's worth`);
    const rate = (list: typeof creates) => (list.length - 1) / ((list.at(-1)!.time - list[0]!.time) / 1000);
    const harnessPerSecond = rate(creates);
    const headers = { 'x-api-key': g1.key, 'x-tenant-id': g1.tenant };
    const request = { url: ref.urls.controlPlane + PATH, method: 'POST' as const, headers, body: DEPLOYMENT };
    await load(request, { connections: 4, amount: 500 });
    const c1 = (await load(request, { connections: 1, seconds })).perSecond;
    const c4 = (await load(request, { connections: 4, seconds })).perSecond;
    return {
      requirements,
      harnessRequests: creates.length,
      harnessPerSecond: Math.round(harnessPerSecond),
      allRequestsPerSecond: Math.round(rate(harnessLog)),
      autocannonPerSecond: { c1, c4 },
      ratio: { c1: round(harnessPerSecond / c1), c4: round(harnessPerSecond / c4) },
    };
  } finally {
    rmSync(reports, { recursive: true, force: true });
    await ref.stop();
  }
}
