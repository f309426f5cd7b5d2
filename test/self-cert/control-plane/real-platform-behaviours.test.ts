// What the harness does about the behaviours of a real platform (README, "Certifying a real
// platform"), each both ways: a target that behaves so, and follows the spec, passes; one that
// breaks the rule behind it still fails. Targets: the platform-like reference (one behaviour
// switched on, times scaled down), or the reference behind a proxy that bends one thing. Each run
// goes inside this process (`certifyHere`), several side by side as apc selftest runs its subjects.
import { describe, expect, test } from 'vitest';
import { editJson, startProxy, type ProxiedAnswer, type ProxiedRequest } from '../../../harness/proxy/proxy.ts';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../../support/certify.ts';
import { certifyControlPlane, startControlPlane, type ControlPlaneTarget } from './support/url-target.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ProxiedAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});
// Up to three certifications side by side (the blocks below), on suite workers kept from run to run.
const suites = keptSuiteWorkers(3);
const DEPLOYMENT = /^\/v2\/deployments\/([0-9a-f-]{36})$/;
const REVISION = /^\/v2\/deployments\/[0-9a-f-]{36}\/revisions\/[0-9a-f-]{36}$/;

/** The platform-like reference (`--reference-platform-like`), control plane only. */
function platformLike(behaviours: string, requirements: string, extra: string[] = [], timeScale = '0.1'): Promise<CertifyRun> {
  return certifyHere(
    {
      args: [
        '--interfaces',
        'control-plane',
        '--reference-platform-like',
        behaviours,
        '--reference-time-scale',
        timeScale,
        '--requirements',
        requirements,
        '--seed',
        '1',
        ...extra,
      ],
      timeoutMs: 400_000,
    },
    suites,
  );
}

/** The reference behind a proxy with `rules`, certified on `requirements`. */
async function proxied(
  rules: (target: ControlPlaneTarget) => Parameters<typeof startProxy>[1],
  requirements: string[],
  profile: Record<string, unknown> = {},
): Promise<CertifyRun> {
  const target = await startControlPlane('hosted');
  const proxy = await startProxy(target.server.urls.controlPlane, rules(target));
  try {
    return await certifyControlPlane(proxy.url, target, 'hosted', requirements, profile, suites);
  } finally {
    await proxy.close();
    await target.close();
  }
}

const failed = (r: CertifyRun) => r.report!.requirements.filter((q) => q.status === 'failed').map((q) => q.id);

// Each block's tests go side by side (each certifies a reference or proxy of its own): they mostly
// wait, on Retry-After, slow builds and deadlines.
describe.concurrent('throttling (429 with Retry-After)', () => {
  test('a target that throttles is judged on its final answers: the rules it follows pass, and the report says how often it throttled', async () => {
    // Every fourth request is throttled, whatever the machine's speed (the platform-like reference throttles by rate).
    let count = 0;
    const r = await proxied(
      () => ({ request: (request) => (++count % 4 === 0 ? json(429, { detail: 'Rate limit exceeded' }, { 'retry-after': '1' }) : request) }),
      ['CP-CREATE-001', 'CP-TAG-002', 'CP-ERR-001', 'CP-ERR-008', 'CP-READ-001', 'CP-DEL-001', 'CP-DEL-002'],
    );
    expect(failed(r), r.stdout).toEqual([]);
    expect(r.report!.verdict).toBe('passed');
    expect(r.report!.transient?.['control-plane']).toMatchObject({ gaveUp: 0 });
    expect(r.report!.transient!['control-plane']!.throttled).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/waited: {2}control-plane: \d+ answer\(s\) 429 \(throttled\)/);
  }, 420_000);

  test('a target that keeps throttling leaves its rules skipped, never failed, and the run says it could not judge them (exit 2)', async () => {
    const r = await proxied(
      () => ({
        request: (request) =>
          request.method === 'GET' && request.path.startsWith('/v2/deployments/')
            ? json(429, { detail: 'Rate limit exceeded' }, { 'retry-after': '1' })
            : request,
      }),
      ['CP-READ-001', 'CP-DEL-001'],
      {
        timeouts: { throttleMs: 2_500 },
      },
    );
    expect(failed(r), r.stdout).toEqual([]);
    expect(r.result('CP-READ-001')).toMatchObject({ status: 'skipped', keptRefusing: true });
    expect(r.result('CP-READ-001')!.reason).toMatch(/the target kept throttling \(429\)/);
    expect(r.report!.verdict).toBe('error');
    expect(r.code).toBe(2);
  }, 420_000);

  test('a throttling target with a real deviation still fails the rule it breaks', async () => {
    const r = await platformLike('throttle', 'CP-DEL-*', ['--reference-fault', 'cp.delete-keeps'], '1');
    expect(failed(r), r.stdout).toContain('CP-DEL-002');
  }, 420_000);
});

describe.concurrent('transient errors (503 with Retry-After)', () => {
  test('503s to GETs are waited out: the rules they hit pass', async () => {
    let count = 0;
    const r = await proxied(
      () => ({
        request: (request) =>
          request.method === 'GET' && ++count % 5 === 0 ? json(503, { detail: 'Service temporarily unavailable' }, { 'retry-after': '1' }) : request,
      }),
      ['CP-READ-001', 'CP-REVL-001', 'CP-TEN-001'],
    );
    expect(failed(r), r.stdout).toEqual([]);
    expect(r.report!.verdict).toBe('passed');
    expect(r.report!.transient!['control-plane']!.unavailable).toBeGreaterThan(0);
  }, 420_000);

  test('a create answered 503 before it took effect is sent again; one that took effect is never sent twice, and its test says why it could not judge', async () => {
    const once = (tookEffect: boolean) => (target: ControlPlaneTarget) => {
      let first = true;
      return {
        async request(request: ProxiedRequest) {
          // The first create of a deployment: not the run's latency probe, whose empty body creates nothing (run/latency.ts).
          if (request.method !== 'POST' || request.path !== '/v2/deployments' || !first || request.body.toString().trim() === '{}') return request;
          first = false;
          if (tookEffect) await fetch(target.server.urls.controlPlane + request.path, { method: 'POST', headers: request.headers, body: request.body });
          return json(503, { detail: 'Service temporarily unavailable' }, { 'retry-after': '0' });
        },
      };
    };
    const lost = await proxied(once(false), ['CP-DEL-001']);
    expect(lost.status('CP-DEL-001'), lost.stdout).toBe('passed');
    const done = await proxied(once(true), ['CP-DEL-001']);
    expect(failed(done)).toEqual([]);
    expect(done.result('CP-DEL-001')!.reason).toMatch(/took effect: its answer is lost/);
  }, 420_000);
});

describe.concurrent('asynchronous deletion (AWAITING_DELETE)', () => {
  test('a deployment that lingers as AWAITING_DELETE after DELETE, then goes, passes the delete rules', async () => {
    const r = await platformLike('async-delete', 'CP-DEL-*,CP-AUTH-003,CP-TEN-002,CP-SEQ-001');
    expect(failed(r), r.stdout).toEqual([]);
    expect(r.report!.verdict).toBe('passed');
  }, 420_000);

  test('a deployment still READY after DELETE fails CP-DEL-002', async () => {
    const r = await platformLike('async-delete', 'CP-DEL-001,CP-DEL-002', ['--reference-fault', 'cp.delete-keeps']);
    expect(r.status('CP-DEL-002'), r.stdout).toBe('failed');
    // READY, or AWAITING_DATABASE when it is that young: anything but AWAITING_DELETE.
    expect(r.result('CP-DEL-002')!.failures[0]!.message).toMatch(/still there with status "(?!AWAITING_DELETE)[A-Z_]+"/);
  }, 420_000);

  test('a deployment that stays AWAITING_DELETE past timeouts.deleteMs fails CP-DEL-002', async () => {
    const deleted = new Map<string, Buffer>();
    const r = await proxied(
      (target) => ({
        async request(request) {
          const id = DEPLOYMENT.exec(request.path.split('?')[0]!)?.[1];
          if (id && request.method === 'DELETE') {
            const read = await fetch(`${target.server.urls.controlPlane}/v2/deployments/${id}`, { headers: request.headers });
            deleted.set(id, Buffer.from(JSON.stringify({ ...((await read.json()) as object), status: 'AWAITING_DELETE' })));
            return request;
          }
          if (id && request.method === 'GET' && deleted.has(id))
            return { status: 200, headers: { 'content-type': 'application/json' }, body: deleted.get(id)! };
          return request;
        },
      }),
      ['CP-DEL-001', 'CP-DEL-002'],
      { timeouts: { deleteMs: 2_000 } },
    );
    expect(r.status('CP-DEL-002'), r.stdout).toBe('failed');
    expect(r.result('CP-DEL-002')!.failures[0]!.message).toMatch(/was not gone 2000 ms after DELETE/);
  }, 420_000);
});

describe.concurrent('busy deployments (a new revision refused while one is in progress)', () => {
  const REVISION_RULES =
    'CP-PATCH-001,CP-REV-002,CP-REV-003,CP-REV-004,CP-REV-006,CP-REV-008,CP-APPL-007,CP-TAG-003,CP-TAR-002,CP-UPL-002,CP-RES-008,CP-CONC-*';

  test('a target with slow builds that refuses PATCHes while busy passes the PATCH rules: the harness waits for the latest revision first', async () => {
    const r = await platformLike('busy-deployments,slow-builds', REVISION_RULES);
    expect(failed(r), r.stdout).toEqual([]);
    expect(r.report!.requirements.filter((q) => q.status === 'blocked')).toEqual([]);
  }, 420_000);

  test('a busy refusal without a detail fails CP-CONC-001', async () => {
    const target = await startControlPlane('hosted');
    const inProgress = new Set<string>();
    const proxy = await startProxy(target.server.urls.controlPlane, {
      request(request) {
        const id = DEPLOYMENT.exec(request.path.split('?')[0]!)?.[1];
        if (request.method !== 'PATCH' || !id) return request;
        // PATCHes arriving together: the first goes through, the others are refused with an empty body.
        if (inProgress.has(id)) return json(409, {});
        inProgress.add(id);
        setTimeout(() => inProgress.delete(id), 200);
        return request;
      },
    });
    try {
      const r = await certifyControlPlane(proxy.url, target, 'hosted', ['CP-CONC-001'], { busyPatch: 'refused', concurrency: 4 }, suites);
      expect(r.status('CP-CONC-001'), r.stdout).toBe('failed');
    } finally {
      await proxy.close();
      await target.close();
    }
  }, 420_000);
});

describe.concurrent('stuck revisions and values outside an enum', () => {
  /** Revision reads answer `status` instead: every status read, or (`deployed`) only a DEPLOYED one, once the deployment names it active. */
  const rewriteRevision = (status: string, only?: 'deployed') => () => ({
    answer: (request: ProxiedRequest, answer: ProxiedAnswer) =>
      request.method === 'GET' && REVISION.test(request.path.split('?')[0]!)
        ? editJson(answer, (j) => void (only === undefined || j.status === 'DEPLOYED' ? (j.status = status) : undefined))
        : answer,
  });

  test('a revision that never ends fails CP-LIFE-001 when the deploy timeout passes, and the run ends soon after', async () => {
    const r = await certifyHere(
      {
        args: [
          '--interfaces',
          'control-plane',
          '--reference-fault',
          'cp.revision-stuck',
          '--deploy-timeout-ms',
          '4000',
          '--requirements',
          'CP-LIFE-001',
          '--seed',
          '1',
        ],
        timeoutMs: 400_000,
      },
      suites,
    );
    expect(r.status('CP-LIFE-001'), r.stdout).toBe('failed');
    expect(r.result('CP-LIFE-001')!.failures[0]!.message).toMatch(/did not end within the deploy timeout \(4000 ms\); its last status was "[A-Z_]+"/);
    // Margin: the run's start on a busy machine, the create and cleanup; never another deploy timeout.
    expect(r.durationMs).toBeLessThan(4_000 + 60_000);
  }, 420_000);

  test('a revision status outside the known values fails CP-REVL-009 at once, long before the deploy timeout, and blocks CP-LIFE-001', async () => {
    const r = await proxied(rewriteRevision('READY'), ['CP-LIFE-001', 'CP-REVL-009'], { timeouts: { deployMs: 300_000 } });
    expect(r.status('CP-REVL-009'), r.stdout).toBe('failed');
    expect(r.result('CP-REVL-009')!.failures[0]!.message).toMatch(/has status "READY", outside the revision statuses/);
    expect(r.result('CP-LIFE-001')?.blockedBy, r.stdout).toEqual(['CP-REVL-009']);
    expect(r.durationMs).toBeLessThan(120_000);
  }, 420_000);

  test('a revision that ends FAILED where it should deploy fails CP-LIFE-001 naming its status and id; its being the active revision fails CP-LIFE-005 beside it', async () => {
    const r = await proxied(rewriteRevision('BUILD_FAILED', 'deployed'), ['CP-LIFE-001', 'CP-LIFE-005']);
    expect(r.status('CP-LIFE-001'), r.stdout).toBe('failed');
    expect(r.result('CP-LIFE-001')!.failures[0]!.message).toMatch(
      /^Revision [0-9a-f-]{36} of deployment [0-9a-f-]{36} ended with status BUILD_FAILED, not DEPLOYED\.$/,
    );
    // The wait saw the deployment name the "failed" revision as active: recorded under CP-LIFE-005,
    // found in CP-LIFE-001's test, which went on to judge its own rule (one fault, each rule it breaks).
    expect(r.status('CP-LIFE-005'), r.stdout).toBe('failed');
    const seen = r.result('CP-LIFE-005')!.failures.find((f) => f.foundIn !== undefined);
    expect(seen?.message).toMatch(/ended with status BUILD_FAILED, and the deployment names it as its active_revision_id/);
    expect(seen?.foundIn).toMatch(/CP-LIFE-001/);
  }, 420_000);
});
