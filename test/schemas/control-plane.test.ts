// Control plane schemas (spec 2.1-2.6, 4.1; FIELD-NOTES for the shapes the spec does not show).
import { describe, expect, it } from 'vitest';
import type { Deployment, DeploymentCreateRequest } from '../../schemas/index.ts';
import { expectIssue, expectValid, withField } from './expect-validation.ts';

const DEPLOYMENT_ID = '5f0b6c52-3d1e-4a8e-9c71-2b9f4e6a1d03';
const TENANT_ID = 'a3c9e2f1-7b4d-4f6a-8e25-1c0d9b8a7f64';
const REVISION_ID = 'c81d4e2a-9f3b-4c6d-a7e8-0b1f2d3e4a5c';

const gitforgeDeployment: Deployment = {
  name: 'support-agent',
  source: 'gitforge',
  source_config: {
    integration_id: '0e8f7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
    repo_url: 'https://gitforge.example/acme/support-agent',
    deployment_type: 'dev',
    build_on_push: true,
    custom_url: 'https://support-agent-5f0b.example',
    resource_spec: null,
    listener_id: null,
    listener_config: null,
    install_command: null,
    build_command: null,
  },
  source_revision_config: {
    repo_ref: 'main',
    graph_config_path: 'graph.json',
    image_uri: null,
    source_tarball_path: null,
    repo_commit_sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  },
  secrets: [{ name: 'MODEL_API_KEY', value: 'sk-test' }],
  secret_references: null,
  id: DEPLOYMENT_ID,
  tenant_id: TENANT_ID,
  created_at: '2025-03-14T09:26:53.589793+00:00',
  updated_at: '2025-03-14T09:26:53.589793+00:00',
  status: 'AWAITING_DATABASE',
  latest_revision_id: REVISION_ID,
  active_revision_id: null,
  image_version: null,
};

const externalCreate: DeploymentCreateRequest = {
  name: 'billing-agent',
  source: 'external_container',
  source_config: {
    listener_id: '6d5c4b3a-2918-4f7e-8d6c-5b4a39281706',
    listener_config: { cluster_namespace: 'agents' },
    custom_url: 'https://billing.internal.example',
    resource_spec: {
      min_scale: 1,
      max_scale: 3,
      cpu: 0.5,
      cpu_limit: 1,
      memory_mb: 1024,
      queue_cpu: 0.25,
      cache_cpu: 0.1,
      db_cpu: 1,
      db_storage_gi: 10,
      db_max_connections: 100,
      labels: { team: 'billing' },
      annotations: { 'example.org/owner': 'billing' },
      service_account_name: 'agent-runner',
      image_pull_secrets: [{ name: 'registry-credentials' }],
      volumes: [{ name: 'scratch', emptyDir: {} }, { name: 'config', configMap: { name: 'agent-config' }, secret: null }],
      volume_mounts: [{ name: 'scratch', mountPath: '/scratch', readOnly: false, subPath: null }],
      init_containers: [{ name: 'migrate', image: 'registry.example/billing/migrate:1.2', command: ['sh', '-c'], args: ['./migrate'] }],
      sidecars: [
        {
          name: 'log-shipper',
          image: 'registry.example/log-shipper:3',
          imagePullPolicy: 'IfNotPresent',
          workingDir: '/app',
          env: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'TOKEN', value: '', valueFrom: { secretKeyRef: { name: 't', key: 'k' } } }],
          envFrom: [{ configMapRef: { name: 'shared' } }],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: null },
          volumeMounts: [{ name: 'scratch', mountPath: '/var/log/agent' }],
          securityContext: { runAsNonRoot: true },
          restartPolicy: 'Always',
        },
      ],
    },
  },
  source_revision_config: { image_uri: 'registry.example/billing/agent:2.0.1' },
  secrets: [],
  secret_references: [{ name: 'DB_PASSWORD', secret_name: 'billing-db', secret_key: 'password' }],
};

describe('Deployment (response)', () => {
  it('accepts a returned gitforge deployment', () => expectValid('Deployment', gitforgeDeployment));

  it('accepts additional properties an implementation may return', () => {
    expectValid('Deployment', { ...gitforgeDeployment, created_by: 'ci', source_config: { ...gitforgeDeployment.source_config, region: 'eu' } });
  });

  it('accepts omitted optional fields and timezone-naive timestamps', () => {
    const { secret_references: _r, image_version: _v, ...rest } = gitforgeDeployment;
    expectValid('Deployment', { ...rest, created_at: '2025-03-14T09:26:53', source_config: {}, source_revision_config: {} });
  });

  it.each(['name', 'source', 'source_config', 'source_revision_config', 'secrets', 'id', 'tenant_id', 'created_at', 'updated_at', 'status', 'latest_revision_id', 'active_revision_id'])(
    'requires %s',
    (field) => {
      const issues = expectIssue('Deployment', withField(gitforgeDeployment, [field], undefined), [field], 'missing');
      expect(issues).toEqual([{ loc: [field], msg: 'Field required', type: 'missing' }]);
    },
  );

  it('refuses wrong values', () => {
    expectIssue('Deployment', { ...gitforgeDeployment, status: 'DEPLOYED' }, ['status'], 'enum');
    expectIssue('Deployment', { ...gitforgeDeployment, source: 'github' }, ['source'], 'enum');
    expectIssue('Deployment', { ...gitforgeDeployment, id: 'deployment-1' }, ['id'], 'uuid_parsing');
    expectIssue('Deployment', { ...gitforgeDeployment, latest_revision_id: 7 }, ['latest_revision_id'], 'string_type');
    expectIssue('Deployment', { ...gitforgeDeployment, created_at: 'yesterday' }, ['created_at'], 'datetime_parsing');
    expectIssue('Deployment', { ...gitforgeDeployment, secrets: [{ name: 'A' }] }, ['secrets', 0, 'value'], 'missing');
    expectIssue('Deployment', withField(gitforgeDeployment, ['source_config', 'deployment_type'], 'staging'), ['source_config', 'deployment_type'], 'enum');
    expectIssue('Deployment', withField(gitforgeDeployment, ['source_revision_config', 'repo_commit_sha'], 42), ['source_revision_config', 'repo_commit_sha'], 'string_type');
  });

  it('holds returned CPU values to the bounds, since they are already rounded', () => {
    const withSpec = (spec: object) => withField(gitforgeDeployment, ['source_config', 'resource_spec'], spec);
    expectValid('Deployment', withSpec({ cpu: 8, cpu_limit: 16, queue_cpu: 0.1, cache_cpu_limit: 0.1, db_cpu: 64 }));
    expectIssue('Deployment', withSpec({ cpu: 8.1 }), ['source_config', 'resource_spec', 'cpu'], 'less_than_equal');
    expectIssue('Deployment', withSpec({ cpu_limit: 0 }), ['source_config', 'resource_spec', 'cpu_limit'], 'greater_than_equal');
  });
});

describe('DeploymentCreateRequest', () => {
  it('accepts a gitforge, an external_container and an internal_source body', () => {
    expectValid('DeploymentCreateRequest', {
      name: 'support-agent',
      source: 'gitforge',
      source_config: { integration_id: '0e8f7d6c-5b4a-4392-8170-6f5e4d3c2b1a', repo_url: 'https://gitforge.example/acme/support-agent', deployment_type: 'dev_free', build_on_push: false },
      source_revision_config: { repo_ref: 'refs/tags/v1.0.0', graph_config_path: 'graph.json' },
      secrets: [{ name: 'MODEL_API_KEY', value: 'sk-test' }],
    });
    expectValid('DeploymentCreateRequest', externalCreate);
    expectValid('DeploymentCreateRequest', {
      name: 'tarball-agent',
      source: 'internal_source',
      source_config: { install_command: 'npm ci', build_command: 'npm run build' },
      source_revision_config: { graph_config_path: 'graph.json', image_uri: null },
      secrets: [],
    });
  });

  it.each(['name', 'source', 'source_config', 'source_revision_config', 'secrets'])('requires %s', (field) => {
    expectIssue('DeploymentCreateRequest', withField(externalCreate, [field], undefined), [field], 'missing');
  });

  it('ignores unknown properties, including the response-only repo_commit_sha', () => {
    expectValid('DeploymentCreateRequest', { ...externalCreate, dry_run: true, source_revision_config: { image_uri: 'x:1', repo_commit_sha: 'abc' } });
  });

  it('leaves the CPU bounds to the rounding rule: raw 0.05, 8.04 and 16.05 pass the schema', () => {
    const spec = (cpu: object) => withField(externalCreate, ['source_config', 'resource_spec'], cpu);
    expectValid('DeploymentCreateRequest', spec({ cpu: 0.05, queue_cpu: 8.04, cache_cpu: 8.05, cpu_limit: 16.05, queue_cpu_limit: 0.01, cache_cpu_limit: 99 }));
    expectIssue('DeploymentCreateRequest', spec({ cpu: 0 }), ['source_config', 'resource_spec', 'cpu'], 'greater_than');
    expectIssue('DeploymentCreateRequest', spec({ cache_cpu_limit: -1 }), ['source_config', 'resource_spec', 'cache_cpu_limit'], 'greater_than');
    expectIssue('DeploymentCreateRequest', spec({ cpu: '1' }), ['source_config', 'resource_spec', 'cpu'], 'float_type');
  });

  it('accepts null for every ResourceSpec field and refuses non-integers where integers are due', () => {
    const spec = (value: object) => withField(externalCreate, ['source_config', 'resource_spec'], value);
    expectValid('DeploymentCreateRequest', spec({ cpu: null, memory_mb: null, labels: null, sidecars: null, orchestrator_cpu: null }));
    expectIssue('DeploymentCreateRequest', spec({ memory_mb: 1.5 }), ['source_config', 'resource_spec', 'memory_mb'], 'int_type');
    expectIssue('DeploymentCreateRequest', spec({ max_scale: '3' }), ['source_config', 'resource_spec', 'max_scale'], 'int_type');
    expectIssue('DeploymentCreateRequest', spec({ labels: { team: 1 } }), ['source_config', 'resource_spec', 'labels', 'team'], 'string_type');
    expectIssue('DeploymentCreateRequest', spec({ image_pull_secrets: [{}] }), ['source_config', 'resource_spec', 'image_pull_secrets', 0, 'name'], 'missing');
  });

  it('checks the nested Kubernetes-style types', () => {
    const loc = ['source_config', 'resource_spec', 'sidecars', 0];
    const sidecar = (patch: object) => withField(externalCreate, loc, { name: 'side', image: 'busybox:1', ...patch });
    expectIssue('DeploymentCreateRequest', sidecar({ name: 'Side_Car' }), [...loc, 'name'], 'string_pattern_mismatch');
    expectIssue('DeploymentCreateRequest', sidecar({ imagePullPolicy: 'Sometimes' }), [...loc, 'imagePullPolicy'], 'enum');
    expectIssue('DeploymentCreateRequest', sidecar({ restartPolicy: 'Never' }), [...loc, 'restartPolicy'], 'enum');
    expectIssue('DeploymentCreateRequest', sidecar({ command: 'run' }), [...loc, 'command'], 'list_type');
    expectIssue('DeploymentCreateRequest', sidecar({ env: [{ name: '1BAD' }] }), [...loc, 'env', 0, 'name'], 'string_pattern_mismatch');
    expectIssue('DeploymentCreateRequest', sidecar({ env: [{ name: 'A', value: 'x', valueFrom: {} }] }), [...loc, 'env', 0], 'value_error');
    expectIssue('DeploymentCreateRequest', sidecar({ volumeMounts: [{ name: 'v' }] }), [...loc, 'volumeMounts', 0, 'mountPath'], 'missing');
    expectIssue('DeploymentCreateRequest', sidecar({ resources: { limits: { cpu: 1 } } }), [...loc, 'resources', 'limits', 'cpu'], 'string_type');
    const volumes = ['source_config', 'resource_spec', 'volumes', 0];
    expectIssue('DeploymentCreateRequest', withField(externalCreate, volumes, { name: 'x'.repeat(64) }), [...volumes, 'name'], 'string_too_long');
    expectIssue('DeploymentCreateRequest', withField(externalCreate, volumes, { name: 'v', nfs: 'server:/x' }), [...volumes, 'nfs'], 'dict_type');
  });

  it('refuses wrong types in source_config and secret references', () => {
    expectIssue('DeploymentCreateRequest', withField(externalCreate, ['source_config', 'listener_id'], 'listener-1'), ['source_config', 'listener_id'], 'uuid_parsing');
    expectIssue('DeploymentCreateRequest', withField(externalCreate, ['source_config', 'build_on_push'], 'yes'), ['source_config', 'build_on_push'], 'bool_type');
    expectIssue('DeploymentCreateRequest', withField(externalCreate, ['source_config', 'listener_config', 'cluster_namespace'], 5), ['source_config', 'listener_config', 'cluster_namespace'], 'string_type');
    expectIssue('DeploymentCreateRequest', withField(externalCreate, ['secret_references', 0, 'secret_key'], undefined), ['secret_references', 0, 'secret_key'], 'missing');
  });
});

describe('DeploymentPatchRequest', () => {
  it('accepts an empty body, all nulls, and each revision trigger', () => {
    expectValid('DeploymentPatchRequest', {});
    expectValid('DeploymentPatchRequest', { revision_source: null, source_config: null, source_revision_config: null, secrets: null, secret_references: null });
    expectValid('DeploymentPatchRequest', { revision_source: 'internal_source', source_revision_config: { source_tarball_path: 'uploads/t/d/source.tar.gz' } });
    expectValid('DeploymentPatchRequest', { source_config: { resource_spec: { cpu: 1.25 } }, secrets: [{ name: 'A', value: 'b' }] });
  });

  it('refuses external_container as a revision source, and wrong types', () => {
    expectIssue('DeploymentPatchRequest', { revision_source: 'external_container' }, ['revision_source'], 'enum');
    expectIssue('DeploymentPatchRequest', { secrets: 'A=b' }, ['secrets'], 'list_type');
    expectIssue('DeploymentPatchRequest', { source_revision_config: 'main' }, ['source_revision_config'], 'dict_type');
    expectIssue('DeploymentPatchRequest', { source_revision_config: { repo_ref: ['main'] } }, ['source_revision_config', 'repo_ref'], 'string_type');
  });
});

describe('Revision and the listings', () => {
  const revision = {
    id: REVISION_ID,
    created_at: '2025-03-14T09:26:54.001+00:00',
    updated_at: '2025-03-14T09:40:02+00:00',
    status: 'DEPLOYED',
    source: 'gitforge',
    source_revision_config: { repo_ref: 'main', graph_config_path: 'graph.json', image_uri: null, source_tarball_path: null, repo_commit_sha: '9fceb02' },
  };

  it('accepts a revision with the FIELD-NOTES fields, or only id and status, with any status text', () => {
    expectValid('Revision', revision);
    expectValid('Revision', { id: REVISION_ID, status: 'BUILD_FAILED' });
    expectValid('Revision', { id: REVISION_ID, status: 'A_STATUS_NOT_LISTED_YET', build_logs_url: 'x' });
  });

  it('requires id and status', () => {
    expectIssue('Revision', { status: 'DEPLOYED' }, ['id'], 'missing');
    expectIssue('Revision', { id: REVISION_ID }, ['status'], 'missing');
    expectIssue('Revision', { id: 'rev-1', status: 'DEPLOYED' }, ['id'], 'uuid_parsing');
    expectIssue('Revision', { id: REVISION_ID, status: 3 }, ['status'], 'string_type');
  });

  it('checks revision and deployment listings', () => {
    expectValid('RevisionList', { resources: [revision, { id: DEPLOYMENT_ID, status: 'QUEUED' }], offset: 0 });
    expectValid('RevisionList', { resources: [] });
    expectIssue('RevisionList', { offset: 0 }, ['resources'], 'missing');
    expectIssue('RevisionList', { resources: [{ status: 'DEPLOYED' }] }, ['resources', 0, 'id'], 'missing');
    expectValid('DeploymentList', { resources: [gitforgeDeployment], offset: 20 });
    expectIssue('DeploymentList', { resources: [{ ...gitforgeDeployment, status: undefined }] }, ['resources', 0, 'status'], 'missing');
    expectIssue('DeploymentList', { resources: [], offset: 'next' }, ['offset'], 'int_type');
  });
});

describe('upload URL, integrations and listeners (FIELD-NOTES shapes)', () => {
  it('needs both upload_url and object_path', () => {
    expectValid('UploadUrlResponse', { upload_url: 'https://storage.example/signed?sig=abc', object_path: 'uploads/t/d/source.tar.gz' });
    expectIssue('UploadUrlResponse', { upload_url: 'https://storage.example/signed' }, ['object_path'], 'missing');
    expectIssue('UploadUrlResponse', { object_path: 'x' }, ['upload_url'], 'missing');
  });

  it('checks integrations and listeners', () => {
    const integration = { id: '0e8f7d6c-5b4a-4392-8170-6f5e4d3c2b1a', installation_id: 41234567, name: 'acme' };
    expectValid('Integration', integration);
    expectValid('IntegrationList', [integration, { ...integration, installation_id: '41234567' }]);
    expectIssue('IntegrationList', [{ name: 'acme' }], [0, 'id'], 'missing');
    expectIssue('IntegrationList', { resources: [] }, [], 'list_type');
    expectValid('ListenerList', { resources: [{ id: '6d5c4b3a-2918-4f7e-8d6c-5b4a39281706', compute_type: 'cluster' }], offset: 0 });
    expectIssue('ListenerList', { resources: [{ id: 'listener' }] }, ['resources', 0, 'id'], 'uuid_parsing');
  });
});
