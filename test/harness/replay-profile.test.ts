// `apc certify --replay` starts from the profile recorded in the report, as it was: a replay must
// not reset the sources, endpoints, fixtures or hosting the original run declared.
import {} from 'node:fs';
import { describe, expect, test } from 'vitest';
import { buildProfile } from '../../harness/profile/sources.ts';
import { replayPlan } from '../../harness/report/replay.ts';
import { writeReports } from '../../harness/report/write.ts';
import { CATALOGUE, sampleReport } from '../report/support/sample-report.ts';
import { scratchDir } from '../support/scratch.ts';

function recorded(edit: (profile: Record<string, unknown>) => void) {
  const report = sampleReport({ seed: 7 });
  edit(report.target.profile as unknown as Record<string, unknown>);
  const dir = scratchDir('replay-profile');
  writeReports(dir, report);
  return replayPlan(dir, CATALOGUE);
}

describe('replay reuses the recorded profile', () => {
  test('sources, endpoints, fixtures, hosting and seed stay as recorded; keys are not taken from the report', () => {
    const plan = recorded((p) => {
      p.sources = ['internal_source'];
      p.endpoints = ['listeners'];
      p.agentServerHosting = 'self-run';
      (p.fixtures as Record<string, unknown>).failingGraphId = 'broken';
    });
    const profile = buildProfile({}, { APC_API_KEY: 'key-again' }, plan.profile);
    expect(profile.sources).toEqual(['internal_source']);
    expect(profile.endpoints).toEqual(['listeners']);
    expect(profile.agentServerHosting).toBe('self-run');
    expect(profile.fixtures.failingGraphId).toBe('broken');
    expect(profile.controlPlaneMode).toBe('hosted');
    expect(profile.seed).toBe(7);
    expect(profile.apiKey).toBe('key-again');
    expect(profile.redact).toEqual([]);
  });

  test('a flag given again still wins, and overrides only what it names', () => {
    const plan = recorded((p) => (p.sources = ['internal_source']));
    const profile = buildProfile({ controlPlaneMode: 'self-hosted', runs: '3' }, {}, plan.profile);
    expect(profile.controlPlaneMode).toBe('self-hosted');
    expect(profile.sources).toEqual(['internal_source']);
    expect(profile.runs).toBe(3);
  });

  test('a recorded second tenant asks for its key again', () => {
    const plan = recorded((p) => (p.otherTenant = { apiKey: '[redacted]', tenantId: 'tenant-2' }));
    expect(plan.otherTenantId).toBe('tenant-2');
    expect(plan.profile.otherTenant).toBeUndefined();
  });
});
