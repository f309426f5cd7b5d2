// `apc contracts publish` runs the official broker client against a recording stand-in for a
// Pact Broker: it must use the broker's publish-contracts API with the token, the consumer
// version and branch (given, or from git), and the pact files' content; secrets stay hidden.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../harness/cli/main.ts';
import { startRecordingBroker, type RecordingBroker } from '../support/recording-broker.ts';

const TOKEN = 'broker-token-that-must-not-show';
const PACT = {
  consumer: { name: 'deploy-pipeline' },
  provider: { name: 'control-plane' },
  interactions: [{ type: 'Synchronous/HTTP', description: 'a request to read a deployment', comments: { requirements: 'CP-READ-001' }, request: { method: 'GET', path: '/v2/deployments/x' }, response: { status: 200 } }],
  metadata: { pactSpecification: { version: '4.0' } },
};

async function publish(args: string[], env: NodeJS.ProcessEnv) {
  let out = '';
  let err = '';
  const code = await main(['contracts', 'publish', ...args], { out: { write: (t) => void (out += t) }, err: { write: (t) => void (err += t) }, env });
  return { code, out, err };
}

describe('apc contracts publish', () => {
  let dir: string;
  let broker: RecordingBroker;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apc-pacts-'));
    writeFileSync(join(dir, 'deploy-pipeline-control-plane.json'), JSON.stringify(PACT));
    broker = await startRecordingBroker();
  });
  afterAll(async () => {
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('publishes each pact file through the publish-contracts API with the token, version and branch', async () => {
    const run = await publish(['--pacts', dir, '--consumer-version', '1.2.3', '--branch', 'feature-x'], { PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_TOKEN: TOKEN });
    expect(run.code).toBe(0);
    expect(broker.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /', 'POST /contracts/publish']);
    expect(broker.calls.every((c) => c.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(broker.published).toEqual([
      {
        pacticipantName: 'deploy-pipeline',
        pacticipantVersionNumber: '1.2.3',
        branch: 'feature-x',
        contracts: [
          {
            consumerName: 'deploy-pipeline',
            providerName: 'control-plane',
            specification: 'pact',
            contentType: 'application/json',
            // The client normalizes the file (it adds defaults) before sending it.
            pact: expect.objectContaining({
              consumer: PACT.consumer,
              provider: PACT.provider,
              interactions: [expect.objectContaining({ description: 'a request to read a deployment', comments: { requirements: 'CP-READ-001' } })],
            }),
          },
        ],
      },
    ]);
    expect(run.out + run.err).not.toContain(TOKEN);
  });

  test('takes the consumer version from git when none is given', async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const run = await publish(['--pacts', dir, '--branch', 'main'], { PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_TOKEN: TOKEN });
    expect(run.code).toBe(0);
    expect(broker.published.at(-1)?.pacticipantVersionNumber).toBe(head);
  });

  test('exits 1 when the broker refuses the pacts', async () => {
    const refusing = await startRecordingBroker({ refuse: true });
    try {
      const run = await publish(['--pacts', dir, '--consumer-version', '1.2.3'], { PACT_BROKER_BASE_URL: refusing.url, PACT_BROKER_TOKEN: TOKEN });
      expect(run.code).toBe(1);
      expect(run.err).toContain('the broker client exited with');
    } finally {
      await refusing.close();
    }
  });

  test('exits 2 without a broker URL, or without pact files', async () => {
    const noBroker = await publish(['--pacts', dir, '--consumer-version', '1'], {});
    expect(noBroker.code).toBe(2);
    expect(noBroker.err).toContain('PACT_BROKER_BASE_URL is not set');
    const empty = mkdtempSync(join(tmpdir(), 'apc-no-pacts-'));
    const noPacts = await publish(['--pacts', empty], { PACT_BROKER_BASE_URL: broker.url });
    expect(noPacts.code).toBe(2);
    expect(noPacts.err).toContain('No pact files in');
    rmSync(empty, { recursive: true });
  });
});
