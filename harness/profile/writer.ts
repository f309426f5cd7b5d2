// The profile `apc init` writes: YAML where each setting carries a comment saying how it was
// found. Keys are never written: the file names the variables that hold them.
import { ENDPOINT_INTERFACE, INTERFACES, OPTIONAL_ENDPOINTS, SOURCE_KINDS, type InterfaceName, type TargetProfile } from './profile.ts';
import type { Discovery } from './discovered.ts';
import { apcCommand } from '../apc-command.ts';

const q = (value: string) => JSON.stringify(value);

/** The findings as the lines `apc certify` prints when it assumed them (no profile given). */
export function assumptionLines(profile: TargetProfile, found: Discovery): string[] {
  const lines = found.notes.map((n) => `${n.key}: ${n.how}`);
  for (const s of SOURCE_KINDS) if (found.sourceNotes[s]) lines.push(`sources ${s}: ${found.sourceNotes[s]}`);
  for (const e of OPTIONAL_ENDPOINTS) if (found.endpointNotes[e]) lines.push(`endpoints ${e}: ${found.endpointNotes[e]}`);
  // Only what concerns the interfaces given: a mode nobody probed is not news.
  const given = (i: InterfaceName) => profile.urls[i] !== undefined;
  const so = [
    ...(given('control-plane') ? [`controlPlaneMode ${profile.controlPlaneMode}`] : []),
    ...(given('agent-server') ? [`agentServerHosting ${profile.agentServerHosting}`] : []),
    ...(given('control-plane') ? [`sources [${profile.sources.join(', ')}]`] : []),
  ];
  if (OPTIONAL_ENDPOINTS.some((e) => given(ENDPOINT_INTERFACE[e]))) so.push(`endpoints [${profile.endpoints.filter((e) => given(ENDPOINT_INTERFACE[e])).join(', ')}]`);
  lines.push(`so: ${so.join(', ')}`);
  return lines;
}

export function profileYaml(profile: TargetProfile, found: Discovery, writtenAt: string): string {
  const how = (key: string) => found.notes.find((n) => n.key === key)?.how;
  const out: string[] = [
    `# apc target profile, written by \`apc init\` on ${writtenAt}.`,
    `# Each setting says how it was found. Certify with: ${apcCommand()} certify --profile <this file>`,
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
  // Sections of the interfaces given only: the rest would be defaults nobody asked for.
  const cp = profile.urls['control-plane'] !== undefined;
  const as = profile.urls['agent-server'] !== undefined;
  const probed = OPTIONAL_ENDPOINTS.filter((e) => profile.urls[ENDPOINT_INTERFACE[e]] !== undefined);
  const offered = probed.filter((e) => profile.endpoints.includes(e));
  // An empty list is written as one: a bare `endpoints:` would read as null.
  if (probed.length > 0) out.push(offered.length > 0 ? 'endpoints:' : 'endpoints: []');
  for (const e of probed) {
    const note = found.endpointNotes[e] ?? found.notes.find((n) => n.key === 'endpoints')?.how ?? 'not probed';
    out.push(profile.endpoints.includes(e) ? `  - ${e}   # ${note}` : `  # - ${e}   (${note})`);
  }
  if (cp || as) out.push('fixtures:');
  if (as) {
    if (how('fixtures')) out.push(`  # ${how('fixtures')}`);
    out.push(`  graphId: ${q(profile.fixtures.graphId)}   # ${how('fixtures.graphId') ?? 'default'}`);
    if (profile.fixtures.failingGraphId) out.push(`  failingGraphId: ${q(profile.fixtures.failingGraphId)}   # ${how('fixtures.failingGraphId')}`);
    else if (how('fixtures.failingGraphId')) out.push(`  # failingGraphId: ${how('fixtures.failingGraphId')}`);
  }
  if (cp) {
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
  }
  out.push(`timeouts: { requestMs: ${profile.timeouts.requestMs}, streamMs: ${profile.timeouts.streamMs}, deployMs: ${profile.timeouts.deployMs}, statsMs: ${profile.timeouts.statsMs}, ${profile.timeouts.deleteMs ? `deleteMs: ${profile.timeouts.deleteMs}, ` : ''}throttleMs: ${profile.timeouts.throttleMs} }   # defaults or given`);
  out.push(`pollIntervalMs: ${profile.pollIntervalMs}   # default or given`);
  return `${out.join('\n')}\n`;
}
