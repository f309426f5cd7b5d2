// A revision whose status is outside the revision statuses can never be read as ended: the wait for
// it stops at once and fails the rule that status breaks, instead of holding the run for the whole
// deploy timeout (30 minutes by default) with no report (issue "Certify a real platform").
import { expect, test } from 'vitest';
import { editJson } from '../../harness/proxy/proxy.ts';
import { certifyThroughProxy } from '../support/proxied-certify.ts';

/** GET of one revision: the target answers it with a status the catalogue does not know. */
const isRevisionRead = (path: string) => /\/revisions\/[^/?]+$/.test(path.split('?')[0]!);

test('a revision status outside its enum fails CP-REVL-009 at once, and the run reports long before the deploy timeout', async () => {
  const deployMs = 1_800_000;
  // Inside this process: nothing here is about the process itself.
  const run = await certifyThroughProxy({
    through: 'control-plane',
    rules: {
      answer: (request, answer) =>
        request.method === 'GET' && isRevisionRead(request.path) && answer.status === 200
          ? editJson(answer, (revision) => void (revision.status = 'PAUSED'))
          : answer,
    },
    profile: (file) => ({ ...file, timeouts: { ...(file.timeouts as object), deployMs } }),
    args: ['--interfaces', 'control-plane', '--requirements', 'CP-LIFE-001,CP-REVL-009', '--runs', '5'],
    // Far below the deploy timeout: a wait that ran to it would be killed here, with no report.
    timeoutMs: 240_000,
  });
  const output = run.output;
  expect(run.code, output).toBe(1);
  expect(run.durationMs).toBeLessThan(deployMs / 5);
  expect(run.status('CP-REVL-009'), output).toBe('failed');
  expect(run.result('CP-REVL-009')?.failures[0]?.message, output).toMatch(/status "PAUSED", outside the revision statuses/);
  // The rule that waited is not judged on a status nobody can read: blocked by the one that broke.
  expect(run.result('CP-LIFE-001')?.blockedBy, output).toEqual(['CP-REVL-009']);
}, 300_000);
