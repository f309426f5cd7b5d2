import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildProfile, ProfileError } from '../../harness/profile/sources.ts';
import { redactedProfile } from '../../harness/profile/profile.ts';
import { scratchDir } from '../support/scratch.ts';

function profileFile(text: string): string {
  const dir = scratchDir('profile');
  const file = join(dir, 'target.yaml');
  writeFileSync(file, text);
  return file;
}

describe('target profile', () => {
  test('defaults: hosted mode, its sources, the echo fixture graph, no URLs', () => {
    const p = buildProfile({}, {});
    expect(p.controlPlaneMode).toBe('hosted');
    expect(p.sources).toEqual(['gitforge', 'internal_container', 'internal_source']);
    expect(p.fixtures.graphId).toBe('echo');
    expect(p.urls).toEqual({});
    expect(p.vocabulary).toEqual({});
  });

  test('flags win over APC_* variables, which win over the profile file', () => {
    const file = profileFile(
      'urls:\n  control-plane: http://file:1\n  agent-server: http://file:2\napiKeyEnv: MY_KEY\nruns: 7\nvocabulary:\n  gitforge: github\n',
    );
    const p = buildProfile(
      { profileFile: file, controlPlaneUrl: 'http://flag:3/' },
      { APC_AGENT_SERVER_URL: 'http://env:4', MY_KEY: 'from-env-var', APC_RUNS: '9' },
    );
    expect(p.urls['control-plane']).toBe('http://flag:3');
    expect(p.urls['agent-server']).toBe('http://env:4');
    expect(p.apiKey).toBe('from-env-var');
    expect(p.runs).toBe(9);
    expect(p.vocabulary).toEqual({ gitforge: 'github' });
  });

  test('a base profile (fast timeouts for the reference) gives defaults that flags still override', () => {
    const base = buildProfile({}, {});
    base.timeouts.streamMs = 10_000;
    base.pollIntervalMs = 20;
    const p = buildProfile({ streamTimeoutMs: '2000' }, {}, base);
    expect(p.timeouts.streamMs).toBe(2000);
    expect(p.pollIntervalMs).toBe(20);
    expect(base.timeouts.streamMs).toBe(10_000);
  });

  test('self-hosted mode switches the default sources', () => {
    const p = buildProfile({ controlPlaneMode: 'self-hosted' }, {});
    expect(p.sources).toContain('external_container');
    expect(p.sources).not.toContain('gitforge');
  });

  test.each([
    [{ controlPlaneUrl: 'not a url' }, /--control-plane-url: expected an http\(s\) URL/],
    [{ controlPlaneUrl: 'ftp://x' }, /expected an http or https URL/],
    [{ controlPlaneMode: 'cloud' }, /expected "hosted" or "self-hosted"/],
    [{ runs: '0' }, /--runs: expected an integer from 1/],
    [{ seed: 'abc' }, /--seed: expected an integer/],
  ])('bad setting %j is refused with a message naming it', (flags, message) => {
    expect(() => buildProfile(flags, {})).toThrow(message);
  });

  test('an environment variable is named when its value is bad', () => {
    expect(() => buildProfile({}, { APC_CONCURRENCY: 'lots' })).toThrow(/APC_CONCURRENCY: expected an integer/);
  });

  test('unknown settings and missing key variables in a profile file are refused', () => {
    expect(() => buildProfile({ profileFile: profileFile('urlz: {}\n') }, {})).toThrow(ProfileError);
    expect(() => buildProfile({ profileFile: profileFile('urlz: {}\n') }, {})).toThrow(/urlz: unknown setting/);
    expect(() => buildProfile({ profileFile: profileFile('apiKeyEnv: NOPE_NOT_SET\n') }, {})).toThrow(/NOPE_NOT_SET is not set/);
    expect(() => buildProfile({ profileFile: profileFile('urls:\n  control: http://x\n') }, {})).toThrow(/urls\.control: unknown setting; did you mean urls\.control-plane\?/);
  });

  test('a missing profile file is a clear error', () => {
    expect(() => buildProfile({ profileFile: join(tmpdir(), 'no-such-apc-profile.yaml') }, {})).toThrow(/no-such-apc-profile\.yaml/);
  });

  test('the redacted profile keeps no key', () => {
    const p = buildProfile({ apiKey: 'k-123456789', otherApiKey: 'k-other-987654' }, {});
    const text = JSON.stringify(redactedProfile(p));
    expect(text).not.toContain('k-123456789');
    expect(text).not.toContain('k-other-987654');
  });

  test.each([
    ['fixtures:\n  graphID: echo\n', /fixtures\.graphID: unknown setting; did you mean fixtures\.graphId\? Known settings under fixtures: graphId, failingGraphId/],
    ['timeouts:\n  deployMS: 60000\n', /timeouts\.deployMS: unknown setting; did you mean timeouts\.deployMs\?/],
    ['vocabulary:\n  gitfroge: github\n', /vocabulary\.gitfroge: unknown setting; did you mean vocabulary\.gitforge\?/],
    ['fixtures:\n  gitforge:\n    repoURL: https://x\n', /fixtures\.gitforge\.repoURL: unknown setting; did you mean fixtures\.gitforge\.repoUrl\?/],
    ['otherTenant:\n  tenantID: x\n', /otherTenant\.tenantID: unknown setting; did you mean otherTenant\.tenantId\?/],
  ])('a typo in a nested key (%j) is refused with its path and the closest key', (text, message) => {
    expect(() => buildProfile({ profileFile: profileFile(text) }, {})).toThrow(message);
  });

  test.each([
    ['runs: many\n', /runs: expected a value of type integer, found "many"/],
    ['timeouts: 5\n', /timeouts: expected a mapping, found 5/],
    ['controlPlaneMode: cloud\n', /controlPlaneMode: "cloud" is not allowed\. Allowed: hosted, self-hosted/],
    ['sources: [gitfroge]\n', /sources\[0\]: "gitfroge" is not allowed; did you mean "gitforge"\? Allowed: gitforge, external_container/],
    ['agentServerHosting: local\n', /agentServerHosting: "local" is not allowed\. Allowed: platform, self-run/],
    ['concurrency: 0\n', /concurrency: must be >= 1/],
  ])('a wrong type or value (%j) is refused with the key path and what is allowed', (text, message) => {
    expect(() => buildProfile({ profileFile: profileFile(text) }, {})).toThrow(message);
  });

  test('every problem of a file is listed at once', () => {
    const error = (() => {
      try {
        buildProfile({ profileFile: profileFile('runs: x\nfixtures:\n  graphID: echo\n') }, {});
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/2 problem\(s\)/);
  });

  test('--control-plane-mode overrides only the mode: the sources the file names stay', () => {
    const file = profileFile('sources: [internal_source]\ncontrolPlaneMode: hosted\n');
    const p = buildProfile({ profileFile: file, controlPlaneMode: 'self-hosted' }, {});
    expect(p.controlPlaneMode).toBe('self-hosted');
    expect(p.sources).toEqual(['internal_source']);
  });

  test('a recorded profile given as the base keeps its sources whatever mode is named', () => {
    const base = buildProfile({}, {});
    base.sources = ['internal_source'];
    expect(buildProfile({ controlPlaneMode: 'hosted' }, {}, base).sources).toEqual(['internal_source']);
  });

  test('agent-server hosting: platform by default, set by the file, APC_AGENT_SERVER_HOSTING or --agent-server-hosting', () => {
    expect(buildProfile({}, {}).agentServerHosting).toBe('platform');
    expect(buildProfile({ profileFile: profileFile('agentServerHosting: self-run\n') }, {}).agentServerHosting).toBe('self-run');
    expect(buildProfile({}, { APC_AGENT_SERVER_HOSTING: 'self-run' }).agentServerHosting).toBe('self-run');
    expect(buildProfile({ agentServerHosting: 'platform' }, { APC_AGENT_SERVER_HOSTING: 'self-run' }).agentServerHosting).toBe('platform');
    expect(() => buildProfile({ agentServerHosting: 'local' }, {})).toThrow(/--agent-server-hosting: expected "platform" or "self-run", found "local"/);
    expect(buildProfile({ agentServerHosting: 'self-run' }, {}).controlPlaneMode).toBe('hosted');
  });

  test('a second key from the environment keeps the tenant the file names for it, and the reverse', () => {
    const file = profileFile('otherTenant:\n  apiKeyEnv: MY_OTHER\n  tenantId: t-file\n');
    expect(buildProfile({ profileFile: file }, { MY_OTHER: 'k-file', APC_OTHER_API_KEY: 'k-env' }).otherTenant).toEqual({ apiKey: 'k-env', tenantId: 't-file' });
    expect(buildProfile({ profileFile: file, otherTenantId: 't-flag' }, { MY_OTHER: 'k-file' }).otherTenant).toEqual({ apiKey: 'k-file', tenantId: 't-flag' });
  });
});
