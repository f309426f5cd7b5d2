// Mutants from the reference implementation's fault switches: each faults.md ends with the table
// "The requirements each fault fails", which is the mutant's declared requirements. The table is
// the one source; this file only adds the family each switch belongs to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlaneMode, InterfaceName } from '../../profile/profile.ts';
import { ROOT } from '../../root.ts';
import type { Family, Mutant } from '../subjects.ts';

const FOLDERS: Record<string, InterfaceName> = { 'control-plane': 'control-plane', 'agent-server': 'agent-server', 'experiment-upload': 'experiment-upload' };

const FAMILY: Record<string, Family> = {
  'cp.revisions-oldest-first': 'listing',
  'cp.immutable-name-accepted': 'immutability',
  'cp.no-revision-on-secrets': 'revision triggers',
  'cp.no-cpu-rounding': 'resource_spec',
  'cp.no-resource-defaults': 'resource_spec',
  'cp.not-found-plain-text': 'errors',
  'cp.validation-as-400': 'errors',
  'cp.no-auth': 'keys and tenants',
  'cp.tenant-leak': 'keys and tenants',
  'cp.delete-keeps': 'deletion',
  'cp.revision-stuck': 'revisions',
  'cp.patch-lost-under-concurrency': 'revision triggers',
  'cp.tag-build-on-push-accepted': 'create and sources',
  'cp.arbitrary-tarball-accepted': 'create and sources',
  'cp.graph-config-path-optional': 'create and sources',
  'as.patch-merges': 'assistant versions',
  'as.set-latest-ignored': 'assistant versions',
  'as.delete-keeps-versions': 'assistant versions',
  'as.metadata-not-first': 'sse',
  'as.no-data-line': 'sse',
  'as.wrong-content-type': 'sse',
  'as.updates-not-keyed-by-node': 'sse',
  'as.stream-mode-list-refused': 'sse',
  'as.graph-name-refused': 'runs',
  'as.stateless-run-persists': 'runs',
  'as.search-ignores-metadata': 'assistants and threads',
  'as.version-not-1': 'assistant versions',
};

/** Every switch listed in a faults.md table, as a mutant. */
export function faultSwitchMutants(): Mutant[] {
  return Object.entries(FOLDERS).flatMap(([folder, iface]) => {
    const text = readFileSync(join(ROOT, 'reference-impl', folder, 'faults.md'), 'utf8');
    const section = text.slice(text.indexOf('## The requirements each fault fails'));
    const deviations = new Map([...text.slice(0, text.indexOf('## The requirements each fault fails')).matchAll(/^\| `([a-z]+\.[a-z0-9-]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));
    return [...section.matchAll(/^\| `([a-z]+\.[a-z0-9-]+)` \| (hosted|self-hosted) \| ([A-Z0-9 -]+) \|$/gm)].map(
      (m): Mutant => ({
        kind: 'mutant',
        id: m[1]!,
        what: deviations.get(m[1]!) ?? m[1]!,
        interface: iface,
        mode: m[2] as ControlPlaneMode,
        faults: [m[1]!],
        family: FAMILY[m[1]!] ?? 'experiments',
        catches: m[3]!.trim().split(/\s+/),
      }),
    );
  });
}
