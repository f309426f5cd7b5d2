// The certifying process counts requests that got no answer per URL, in memory, to stop sending to
// a target that hangs. A run must not inherit another run's counts: in one process (a test file,
// the selftest) an ephemeral port a hanging target had is soon another target's, and a conforming
// target there was "not sent" anything (the latency probe's empty create never reached it).
import { expect, test } from 'vitest';
import { requestBreaker } from '../../harness/http/circuit-breaker.ts';
import { referenceProfileFile, startReferenceTarget } from '../../harness/reference/reference-target.ts';
import { certifyHere } from '../support/certify.ts';

test('a run starts with closed breakers, whatever an earlier run in this process counted for its URL', async () => {
  const target = await startReferenceTarget({ mode: 'hosted' });
  try {
    const url = target.urls['control-plane'];
    // What an earlier run against a target that hung at this URL left behind.
    for (let i = 0; i < requestBreaker.limit; i++) requestBreaker.failed(url, `GET ${url}/v2/deployments: no complete response within 10000 ms`);
    expect(requestBreaker.refusal(url)).toMatch(/^not sent/);
    const run = await certifyHere({
      profile: referenceProfileFile(target),
      args: ['--interfaces', 'control-plane', '--requirements', 'CP-VER-001,CP-READ-003', '--runs', '2'],
      env: { APC_API_KEY: target.grants[0]!.key, APC_OTHER_API_KEY: target.grants[1]!.key },
      timeoutMs: 100_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status('CP-VER-001'), output).toBe('passed');
    expect(run.status('CP-READ-003'), output).toBe('passed');
    expect(requestBreaker.refusal(url)).toBeUndefined();
  } finally {
    await target.close();
  }
}, 120_000);
