// The profile `apc init` writes: YAML where each setting carries a comment saying how it was
// found. Keys are never written: the file names the variables that hold them.
import { INTERFACES, OPTIONAL_ENDPOINTS, SOURCE_KINDS, type TargetProfile } from './profile.ts';
import type { Discovery } from './discovery.ts';

const q = (value: string) => JSON.stringify(value);

/** The findings as the lines `apc certify` prints when it assumed them (no profile given). */
export function assumptionLines(profile: TargetProfile, found: Discovery): string[] {
  const lines = found.notes.map((n) => `${n.key}: ${n.how}`);
  for (const s of SOURCE_KINDS) if (found.sourceNotes[s]) lines.push(`sources ${s}: ${found.sourceNotes[s]}`);
  for (const e of OPTIONAL_ENDPOINTS) if (found.endpointNotes[e]) lines.push(`endpoints ${e}: ${found.endpointNotes[e]}`);
  lines.push(`so: controlPlaneMode ${profile.controlPlaneMode}, agentServerHosting ${profile.agentServerHosting}, sources [${profile.sources.join(', ')}], endpoints [${profile.endpoints.join(', ')}]`);
  return lines;
}

export function profileYaml(profile: TargetProfile, found: Discovery, writtenAt: string): string {
  const how = (key: string) => found.notes.find((n) => n.key === key)?.how;
  const out: string[] = [
    `# apc target profile, written by \`apc init\` on ${writtenAt}.`,
    '# Each setting says how it was found. Certify with: apc certify --profile <this file>',
    '# Keys are not written here: export APC_API_KEY (and APC_OTHER_API_KEY for the second tenant).',
    'urls:',
  ];
  for (const i of INTERFACES) if (profile.urls[i]) out.push(`  ${i}: ${q(profile.urls[i]!)}   # given`);
  if (profile.tenantId) out.push(`tenantId: ${q(profile.tenantId)}   # given`);
  if (profile.otherTenant) {
    out.push(`otherTenant:   # ${how('otherTenant') ?? 'given'}`);
    out.push(profile.otherTenant.apiKey === profile.apiKey ? '  # no apiKeyEnv: the main (organization) key acts for this workspace too' : '  apiKeyEnv: APC_OTHER_API_KEY');
    if (profile.otherTenant.tenantId) out.push(`  tenantId: ${q(profile.otherTenant.tenantId)}`);
  } else if (found.otherTenant === false) out.push(`# otherTenant left out: ${how('otherTenant')}`);
  else out.push('# otherTenant: none given (apc init --other-api-key ...); the tenant-scoping rules are not applicable without it');
  if (profile.foreignTenantId) out.push(`foreignTenantId: ${q(profile.foreignTenantId)}   # given: a workspace the main key may not act for`);
  if (profile.urls['control-plane']) {
    out.push(`busyPatch: ${profile.busyPatch}   # ${how('busyPatch') ?? 'default'}`);
    out.push(`controlPlaneMode: ${profile.controlPlaneMode}   # ${how('controlPlaneMode') ?? 'default'}`);
    out.push('sources:');
    for (const s of SOURCE_KINDS) {
      const note = found.sourceNotes[s] ?? 'not probed';
      out.push(profile.sources.includes(s) ? `  - ${s}   # ${note}` : `  # - ${s}   (${note})`);
    }
  }
  if (profile.urls['agent-server']) out.push(`agentServerHosting: ${profile.agentServerHosting}   # ${how('agentServerHosting') ?? 'default'}`);
  // An empty list is written as one: a bare `endpoints:` would read as null.
  out.push(OPTIONAL_ENDPOINTS.some((e) => profile.endpoints.includes(e)) ? 'endpoints:' : 'endpoints: []');
  for (const e of OPTIONAL_ENDPOINTS) {
    const note = found.endpointNotes[e];
    if (profile.endpoints.includes(e)) out.push(`  - ${e}   # ${note ?? 'default (its interface has no URL)'}`);
    else out.push(`  # - ${e}   (${note ?? 'not probed'})`);
  }
  out.push('fixtures:');
  out.push(`  graphId: ${q(profile.fixtures.graphId)}   # ${how('fixtures.graphId') ?? 'default'}`);
  if (profile.fixtures.failingGraphId) out.push(`  failingGraphId: ${q(profile.fixtures.failingGraphId)}   # ${how('fixtures.failingGraphId')}`);
  else if (how('fixtures.failingGraphId')) out.push(`  # failingGraphId: ${how('fixtures.failingGraphId')}`);
  out.push(`  imageUri: ${q(profile.fixtures.imageUri)}   # default: an image URI that deploys on your target`);
  out.push(profile.fixtures.otherImageUri ? `  otherImageUri: ${q(profile.fixtures.otherImageUri)}   # given` : '  # otherImageUri: not discoverable; a second image that deploys (another tag), so CP-REV-014 can change revision values');
  out.push('  # failingImageUri: not discoverable; name an image whose build fails to check the failure rules');
  if (profile.fixtures.listenerId) out.push(`  listenerId: ${q(profile.fixtures.listenerId)}   # the first of GET /v2/listeners`);
  if (profile.fixtures.clusterNamespace) out.push(`  clusterNamespace: ${q(profile.fixtures.clusterNamespace)}   # the first namespace of that listener`);
  const g = profile.fixtures.gitforge;
  out.push('  gitforge:');
  if (g.integrationId) out.push(`    integrationId: ${q(g.integrationId)}   # the first of GET /v1/integrations/gitforge/install`);
  out.push(`    repoUrl: ${q(g.repoUrl)}   # default: a repository your target can build`, `    repoRef: ${q(g.repoRef)}`, `    graphConfigPath: ${q(g.graphConfigPath)}`);
  out.push(g.otherRepoRef ? `    otherRepoRef: ${q(g.otherRepoRef)}   # given` : '    # otherRepoRef: not discoverable; a second branch, so CP-REV-014 can change revision values');
  out.push(`timeouts: { requestMs: ${profile.timeouts.requestMs}, streamMs: ${profile.timeouts.streamMs}, deployMs: ${profile.timeouts.deployMs}, statsMs: ${profile.timeouts.statsMs}, ${profile.timeouts.deleteMs ? `deleteMs: ${profile.timeouts.deleteMs}, ` : ''}throttleMs: ${profile.timeouts.throttleMs} }   # defaults or given`);
  out.push(`pollIntervalMs: ${profile.pollIntervalMs}   # default or given`);
  return `${out.join('\n')}\n`;
}
