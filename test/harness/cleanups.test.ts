// What a test leaves to do when it ends: deletions run in reverse order, deployment deletions side
// by side within the run's concurrency, and the wait for a deleted deployment to go away tries a
// failed read again within a second and stops after a few in a row. Against a target that failed
// every third request, the cleanup of one create property once took five minutes (a 5 s poll
// interval after each failed read, one deletion after another).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { runCleanups, type Cleanup } from '../../harness/conformance/cleanups.ts';
import { InterfaceClient, Recorder } from '../../harness/http/client.ts';
import { Limiter } from '../../harness/http/limiter.ts';
import { FAILED_READS_IN_A_ROW, untilGone } from '../../harness/conformance/awaiting-delete.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runCleanups', () => {
  test('runs in reverse order; neighbours marked alongside run side by side, at most `concurrency` at once', async () => {
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    const step = (label: string, alongside = false): Cleanup => ({
      label,
      alongside,
      run: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        events.push(`start ${label}`);
        await sleep(20);
        events.push(`end ${label}`);
        inFlight -= 1;
      },
    });
    // Registered: an assistant, then five deployments, then a thread.
    const errors = await runCleanups([step('assistant'), ...['d1', 'd2', 'd3', 'd4', 'd5'].map((d) => step(d, true)), step('thread')], 3);
    expect(errors).toEqual([]);
    expect(events[0]).toBe('start thread');
    expect(events[1]).toBe('end thread');
    expect(events.slice(-2)).toEqual(['start assistant', 'end assistant']);
    expect(most).toBe(3);
    // The five deletions all ended before the assistant's began.
    expect(events.slice(2, -2).filter((e) => e.startsWith('end'))).toHaveLength(5);
  });

  test('a cleanup that fails is reported by its label and the others still run', async () => {
    const ran: string[] = [];
    const errors = await runCleanups(
      [
        { label: 'DELETE /a', alongside: true, run: async () => void ran.push('a') },
        { label: 'DELETE /b', alongside: true, run: () => Promise.reject(new Error('answered 500')) },
        { label: 'DELETE /c', run: async () => void ran.push('c') },
      ],
      4,
    );
    expect(errors).toEqual(['DELETE /b: answered 500']);
    expect(ran.sort()).toEqual(['a', 'c']);
  });
});

describe('untilGone', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  /** A control plane whose GET of a deployment answers the statuses of `script` in turn, then the last one. */
  async function scripted(script: number[]): Promise<{ cp: InterfaceClient; reads: number[] }> {
    const reads: number[] = [];
    const server = createServer((req, res) => {
      const status = script.length > 1 ? script.shift()! : script[0]!;
      reads.push(Date.now());
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { id: 'x', status: 'AWAITING_DELETE' } : { detail: status === 404 ? 'Deployment ID x not found.' : 'Internal Server Error' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { cp: new InterfaceClient('control-plane', url, defaultProfile(), new Recorder(), new Limiter(4)), reads };
  }

  test('a read the target failed is tried again within a second, not after the poll interval', async () => {
    const { cp, reads } = await scripted([500, 500, 404]);
    const started = Date.now();
    const gone = await untilGone(cp, 'x', 60_000, 5_000);
    expect(gone.gone).toBe(true);
    expect(reads).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  test('AWAITING_DELETE is read again after the poll interval, and goes on until gone', async () => {
    const { cp, reads } = await scripted([200, 200, 404]);
    const gone = await untilGone(cp, 'x', 60_000, 100);
    expect(gone.gone).toBe(true);
    expect(reads).toHaveLength(3);
    expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(90);
  });

  test(`a target whose reads keep failing is left after ${FAILED_READS_IN_A_ROW} in a row, saying why, long before the deletion bound`, async () => {
    const { cp, reads } = await scripted([500]);
    const gone = await untilGone(cp, 'x', 30 * 60_000, 200);
    expect(gone.gone).toBe(false);
    expect(reads).toHaveLength(FAILED_READS_IN_A_ROW);
    if (!gone.gone) expect(gone.why).toMatch(new RegExp(`failed ${FAILED_READS_IN_A_ROW} times in a row.*500`));
  });
});
