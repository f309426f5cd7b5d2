// What a run learns of its target while it runs (harness/conformance/learned.ts): the first test
// that learns busyPatch: refused says how, every worker of the run picks it up as its tests start,
// and the report reads it once the tests have ended.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { applyLearned, BUSY_DETAIL, learnBusyPatchRefused, learnedIn, learnedLines } from '../../harness/conformance/learned.ts';
import type { RunContext } from '../../harness/conformance/run-context.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Two workers' views of one run: each its own copy of the context, one folder. */
function workers(): [RunContext, RunContext, string] {
  const stateDir = mkdtempSync(join(tmpdir(), 'apc-learned-'));
  dirs.push(stateDir);
  const worker = (): RunContext => ({ profile: defaultProfile(), runId: 'apc-test', reproFlags: '', workerConcurrency: 1, stateDir });
  return [worker(), worker(), stateDir];
}

describe('busyPatch learned at run time', () => {
  test('the worker that learns it treats the target as refusing at once; another, from its next test on; the first to learn says how', () => {
    const [a, b, dir] = workers();
    expect(learnedIn(dir)).toBeUndefined();
    learnBusyPatchRefused(a, 'a revision-creating PATCH answered 409 (first)');
    learnBusyPatchRefused(b, 'a revision-creating PATCH answered 409 (second)');
    expect(a.profile.busyPatch).toBe('refused');
    const c = workers()[0];
    c.stateDir = dir;
    expect(c.profile.busyPatch).toBe('accepted');
    applyLearned(c);
    expect(c.profile.busyPatch).toBe('refused');
    expect(learnedIn(dir)).toEqual({ busyPatch: { value: 'refused', how: 'a revision-creating PATCH answered 409 (first)' } });
  });

  test('a run that learned nothing changes no profile and reports nothing', () => {
    const [a, , dir] = workers();
    applyLearned(a);
    expect(a.profile.busyPatch).toBe('accepted');
    expect(learnedLines(learnedIn(dir))).toEqual([]);
  });

  test('the report line says what was learned, how, and what to write in the profile', () => {
    expect(learnedLines({ busyPatch: { value: 'refused', how: 'a revision-creating PATCH answered 409 (busy)' } })).toEqual([
      'busyPatch: refused: a revision-creating PATCH answered 409 (busy); each later PATCH waited for the latest revision to end. Write `busyPatch: refused` in the profile (apc init finds it) and the plan counts those waits.',
    ]);
  });

  test('a detail that says a revision is in progress reads as busy; other refusals do not', () => {
    for (const detail of ['A revision is already in progress for this deployment.', 'Deployment busy', 'a build is under way', 'revision still building'])
      expect(detail).toMatch(BUSY_DETAIL);
    for (const detail of ['The deployment is being deleted.', 'Deployment not found', 'repo_ref may not name a tag']) expect(detail).not.toMatch(BUSY_DETAIL);
  });
});
