// The run's pool of shared deployments, held by the certifying process (harness/budget/broker.ts
// over harness/budget/lease-table.ts): one holder per key at a time, the others served in
// the order they asked (those of the holder's suite file first); a dropped value is made again by the next holder; different keys are
// held side by side. Asked over HTTP by many clients at once, as the suite workers ask it.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LeaseTable } from '../../harness/budget/lease-table.ts';
import { startPoolBroker, type PoolBroker } from '../../harness/budget/broker.ts';

describe('LeaseTable', () => {
  test('a key is held by one at a time; the next in line gets it with the value the holder left', async () => {
    const table = new LeaseTable();
    const first = await table.lease('internal_container');
    expect(first.value).toBeUndefined();
    const order: string[] = [];
    const second = table.lease('internal_container').then((g) => (order.push('second'), g));
    const third = table.lease('internal_container').then((g) => (order.push('third'), g));
    // Another key is free meanwhile.
    expect((await table.lease('gitforge')).value).toBeUndefined();
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    expect(table.release(first.token, { value: { id: 'd1' } })).toBe(true);
    const s = await second;
    expect(s.value).toEqual({ id: 'd1' });
    expect(order).toEqual(['second']);
    expect(table.release(s.token, { drop: true })).toBe(true);
    const t = await third;
    expect(t.value).toBeUndefined();
    expect(order).toEqual(['second', 'third']);
    // A second release of the same lease gives nothing back twice.
    expect(table.release(s.token)).toBe(false);
    expect(table.holds(t.token)).toBe('internal_container');
  });

  test("a key goes next to a waiter of its holder's suite file, before those of other files that asked earlier", async () => {
    const table = new LeaseTable();
    const first = await table.lease('k', undefined, 'listing.suite.ts');
    const order: string[] = [];
    const other = table.lease('k', undefined, 'triggers.suite.ts').then((g) => (order.push('other file'), g));
    const same = table.lease('k', undefined, 'listing.suite.ts').then((g) => (order.push('same file'), g));
    table.release(first.token);
    table.release((await same).token);
    await other;
    expect(order).toEqual(['same file', 'other file']);
  });

  test('a waiter that gave up leaves the queue: the key goes to the one after it', async () => {
    const table = new LeaseTable();
    const first = await table.lease('k');
    const abort = new AbortController();
    const gaveUp = table.lease('k', abort.signal);
    const after = table.lease('k');
    abort.abort();
    await expect(gaveUp).rejects.toThrow(/given up/);
    table.release(first.token, { value: 1 });
    expect((await after).value).toBe(1);
  });
});

function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('the pool broker', () => {
  let broker: PoolBroker;
  beforeAll(async () => {
    broker = await startPoolBroker();
  });
  afterAll(() => broker.close());

  test('many clients at once on two keys: never two holders of one key, every client served, the value of each key made once', async () => {
    const holders = new Map<string, number>();
    const most = new Map<string, number>();
    const worker = async (key: string, n: number) => {
      const { status, json } = await post(`${broker.url}/lease`, { key });
      expect(status).toBe(200);
      holders.set(key, (holders.get(key) ?? 0) + 1);
      most.set(key, Math.max(most.get(key) ?? 0, holders.get(key)!));
      // The first holder of a key makes its value; every later one finds it.
      const value = json.value ?? { madeBy: n };
      await new Promise((r) => setTimeout(r, 5));
      holders.set(key, holders.get(key)! - 1);
      expect((await post(`${broker.url}/release`, { token: json.token, value })).json.released).toBe(true);
      return value as { madeBy: number };
    };
    const values = await Promise.all(Array.from({ length: 16 }, (_, n) => worker(n % 2 === 0 ? 'a' : 'b', n)));
    expect(most.get('a')).toBe(1);
    expect(most.get('b')).toBe(1);
    // One value per key, made once.
    expect(new Set(values.filter((_, n) => n % 2 === 0).map((v) => v.madeBy)).size).toBe(1);
    expect(new Set(values.filter((_, n) => n % 2 === 1).map((v) => v.madeBy)).size).toBe(1);
  });

  test('two keys are held side by side', async () => {
    const a = await post(`${broker.url}/lease`, { key: 'x' });
    const b = await post(`${broker.url}/lease`, { key: 'y' });
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const held of [a, b]) expect((await post(`${broker.url}/release`, { token: held.json.token })).json.released).toBe(true);
  });

  test('anything but its two routes under its own path is refused with a 4xx', async () => {
    expect((await post(`${new URL(broker.url).origin}/lease`, { key: 'a' })).status).toBe(404);
    expect((await post(`${broker.url}/lease`, { key: '' })).status).toBe(400);
    expect((await post(`${broker.url}/release`, {})).status).toBe(400);
    expect((await post(`${broker.url}/release`, { token: 'nobody#1' })).json.released).toBe(false);
  });
});
