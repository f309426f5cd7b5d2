// Generator contexts of the two modes, with fixtures as a profile gives them.
import type { GeneratorContext } from '../../../generators/control-plane/context.ts';

const fixtures = {
  gitforge: { repoUrl: 'https://example.com/acme/agent', repoRef: 'main', graphConfigPath: 'graph.json' },
  imageUri: 'registry.example.com/acme/agent:1.0.0',
};

export const hosted: GeneratorContext = {
  mode: 'hosted',
  sources: ['gitforge', 'internal_container', 'internal_source'],
  fixtures: { ...fixtures, gitforge: { ...fixtures.gitforge, integrationId: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b' } },
  namePrefix: 'apc-test-h',
};

export const selfHosted: GeneratorContext = {
  mode: 'self-hosted',
  sources: ['external_container', 'internal_container', 'internal_source'],
  fixtures: { ...fixtures, listenerId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', clusterNamespace: 'agents' },
  namePrefix: 'apc-test-s',
};

export const contexts: GeneratorContext[] = [hosted, selfHosted];
