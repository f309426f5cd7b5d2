// Discovery proves the fixture graphs (apc init, and certify's discovery of bare URLs, share
// discover()): the fixture graph must stream a run to its end and the failing graph must make a
// run fail. On the reference both hold. Behind a proxy that accepts any graph id (every create is
// made an echo assistant, as a server that looks graphs up only when they run), a graph id that
// cannot exist is accepted: the profile says so, and `fail`, whose run does not fail, is left out.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference } from '../../reference-impl/index.ts';
import { editRequestJson, startProxy } from '../../harness/proxy/proxy.ts';
import { apcHere } from '../support/apc-here.ts';
import { scratchDir } from '../support/scratch.ts';

const keys = [{ key: `apc-fixtures-${randomBytes(9).toString('hex')}`, tenants: [randomUUID()] }];
let server: Awaited<ReturnType<typeof startReference>>;
beforeAll(async () => {
  server = await startReference({ mode: 'hosted', apiKeys: keys, phaseMs: 5, statsDelayMs: 300 });
});
afterAll(() => server.close());

async function init(agentServerUrl: string): Promise<{ text: string; fixtures: { graphId: string; failingGraphId?: string } }> {
  const out = join(scratchDir('fixture-graphs'), `${randomUUID()}.yaml`);
  const run = await apcHere(['init', '--agent-server-url', agentServerUrl, '--out', out], { APC_API_KEY: keys[0]!.key });
  expect(run.code, run.stderr).toBe(0);
  const text = readFileSync(out, 'utf8');
  return { text, fixtures: (parse(text) as { fixtures: { graphId: string; failingGraphId?: string } }).fixtures };
}

describe('discovery proves the fixture graphs', () => {
  test('on the reference: echo streams a run to its end, fail makes a run fail, a graph that cannot exist is refused', async () => {
    const { text, fixtures } = await init(server.urls.agentServer);
    expect(fixtures.failingGraphId).toBe('fail');
    expect(text).toMatch(
      /graphId: "echo" {3}# POST \/assistants with graph_id echo answered 20\d; a run streamed \d+ events \(kinds: [^)]*updates[^)]*\) and ended/,
    );
    expect(text).toMatch(/failingGraphId: "fail" {3}# .*kinds: [^)]*error[^)]*\).*: the run failed/);
    expect(text).not.toMatch(/accepts any graph id/);
  }, 120_000);

  test('behind a server that accepts any graph id: a note in the profile, and fail left out unless shown to fail', async () => {
    const anyGraph = await startProxy(server.urls.agentServer, {
      request: (r) => (r.method === 'POST' && r.path === '/assistants' ? editRequestJson(r, (body) => void (body.graph_id = 'echo')) : r),
    });
    try {
      const { text, fixtures } = await init(anyGraph.url);
      expect(text).toMatch(
        /# POST \/assistants with graph_id apc-no-such-graph-[0-9a-f]+, a graph that cannot exist, answered 20\d: this target accepts any graph id/,
      );
      expect(fixtures.failingGraphId).toBeUndefined();
      expect(text).toMatch(
        /# failingGraphId: POST \/assistants with graph_id fail answered 20\d, but a run streamed \d+ events .* and ended, with no error event or failed status: not shown to fail, left out/,
      );
      // The fixture graph itself still runs to its end.
      expect(text).toMatch(/graphId: "echo" {3}# .* and ended/);
    } finally {
      await anyGraph.close();
    }
  }, 120_000);
});
