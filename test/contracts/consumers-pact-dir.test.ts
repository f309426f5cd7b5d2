// The command `apc contracts verify` names when it finds no pacts, `npm run contracts:consumers`,
// must write them where verify reads by default (contracts/pacts), while `npm test` keeps its
// pacts in a temporary folder (test/support/global-setup.ts provides `pactDir`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import consumersConfig from '../../contracts/vitest.config.ts';
import rootConfig from '../../vitest.config.ts';
import { DEFAULT_PACT_DIR } from '../../harness/pact/pact-files.ts';
import { ROOT } from '../../harness/root.ts';

describe('where the consumer tests write their pacts', () => {
  test('`npm run contracts:consumers` runs the consumers config, which provides no pact dir: contracts/pacts', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['contracts:consumers']).toMatch(/--config contracts\/vitest\.config\.ts(\s|$)/);
    // contracts/pact-setup.ts falls back to DEFAULT_PACT_DIR when nothing provides `pactDir`.
    expect(consumersConfig.test?.globalSetup).toBeUndefined();
    expect(consumersConfig.test?.provide).toBeUndefined();
    expect(DEFAULT_PACT_DIR).toBe(join(ROOT, 'contracts', 'pacts'));
  });

  test('`npm test` provides a temporary pact dir through its global setup', () => {
    // The second starts the run's LangGraph JS server when a file asks for it, and provides no pact dir.
    expect(rootConfig.test?.globalSetup).toEqual(['test/support/global-setup.ts', 'test/langgraph-js/global-setup.ts']);
    expect(readFileSync(join(ROOT, 'test/langgraph-js/global-setup.ts'), 'utf8')).not.toMatch(/pactDir/);
    expect(readFileSync(join(ROOT, 'test/support/global-setup.ts'), 'utf8')).toMatch(/provide\('pactDir', pactDir\)/);
  });
});
