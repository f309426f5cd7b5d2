// Each worker's share of the requests in flight grows as suite files end, so the last files of a
// run on a slow target are not left sending one request at a time while the others' slots idle;
// the shares granted never add up to more than --concurrency.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { Limiter } from '../../harness/http/limiter.ts';
import { slotShare, slotSharePublisher, slotShareReader } from '../../harness/conformance/slot-share.ts';
import type { RunContext } from '../../harness/conformance/run-context.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test('a running worker gets the requests in flight divided among the files that may still run at once', () => {
  expect(slotShare(4, 4, 20)).toBe(1);
  expect(slotShare(4, 4, 2)).toBe(2);
  expect(slotShare(4, 4, 1)).toBe(4);
  expect(slotShare(4, 4, 3)).toBe(1);
  expect(slotShare(1, 4, 1)).toBe(1);
  // Whatever files are left, the running workers' shares add up to at most the limit.
  for (let left = 1; left <= 10; left++) expect(Math.min(4, left) * slotShare(6, 4, left)).toBeLessThanOrEqual(6);
});

test('a worker reads the share the certifying process wrote as files ended, and its limiter lets that many requests go at once', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'apc-slots-'));
  dirs.push(stateDir);
  const run: RunContext = { profile: defaultProfile(), runId: 'apc-test', reproFlags: '', workerConcurrency: 1, stateDir };
  const publisher = slotSharePublisher(stateDir, 4, 4, ['a', 'b', 'c', 'd']);
  const limiter = new Limiter(1, undefined, false, slotShareReader(run));
  let inFlight = 0;
  let most = 0;
  const request = () =>
    limiter.run(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlight--;
    });
  await Promise.all([request(), request(), request()]);
  expect(most).toBe(1);
  // Three files ended (one not of this run): the last one's worker may send all four.
  for (const file of ['a', 'b', 'x', 'c']) publisher.fileEnded(file);
  await new Promise((resolve) => setTimeout(resolve, 600));
  most = 0;
  await Promise.all([request(), request(), request(), request(), request(), request()]);
  expect(most).toBe(4);
});
