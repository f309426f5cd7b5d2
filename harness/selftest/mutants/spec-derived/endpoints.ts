// The spec's endpoints (section 4) as data for the generated mutants: which response type each
// success answer carries (section 2), which request type each body is, and which success and
// refusal codes the spec gives. Nothing here knows the suites.
import type { TSchema } from '@sinclair/typebox';
import { Assistant, AssistantCreateRequest, AssistantPatchRequest, Thread } from '../../../../schemas/agent-server.ts';
import { Deployment, DeploymentCreateRequest, DeploymentPatchRequest, Revision } from '../../../../schemas/control-plane.ts';
import { ExperimentUploadRequest, UploadedDataset, UploadedExperiment } from '../../../../schemas/experiment-upload.ts';
import type { InterfaceName } from '../../../profile/profile.ts';

export interface Endpoint {
  interface: InterfaceName;
  method: string;
  /** The path as the spec writes it ({...} a path parameter). */
  path: string;
  /** Success code the spec gives (section 4, 7). */
  success: number;
  /** Where the response type sits: the body itself, each item of a listing, or a member of the body. */
  carries?: { type: string; at: 'body' | 'items' | `member:${string}` }[];
  /** The request body's type. */
  request?: string;
  /** The spec's traceability anchor of the endpoint row. */
  anchor: string;
}

/** The response and request types of section 2, by name. */
export const TYPES: Record<string, { schema: TSchema; interface: InterfaceName; section: string }> = {
  Deployment: { schema: Deployment, interface: 'control-plane', section: '2.1' },
  Revision: { schema: Revision, interface: 'control-plane', section: '2.6' },
  Assistant: { schema: Assistant, interface: 'agent-server', section: '2.7' },
  Thread: { schema: Thread, interface: 'agent-server', section: '2.7' },
  UploadedDataset: { schema: UploadedDataset, interface: 'experiment-upload', section: '2.8' },
  UploadedExperiment: { schema: UploadedExperiment, interface: 'experiment-upload', section: '2.8' },
  DeploymentCreateRequest: { schema: DeploymentCreateRequest, interface: 'control-plane', section: '4.1' },
  DeploymentPatchRequest: { schema: DeploymentPatchRequest, interface: 'control-plane', section: '4.1' },
  AssistantCreateRequest: { schema: AssistantCreateRequest, interface: 'agent-server', section: '4.2' },
  AssistantPatchRequest: { schema: AssistantPatchRequest, interface: 'agent-server', section: '4.2' },
  ExperimentUploadRequest: { schema: ExperimentUploadRequest, interface: 'experiment-upload', section: '2.8' },
};

export const ENDPOINTS: Endpoint[] = [
  { interface: 'control-plane', method: 'POST', path: '/v2/deployments', success: 201, carries: [{ type: 'Deployment', at: 'body' }], request: 'DeploymentCreateRequest', anchor: '4.1/post-v2-deployments' },
  { interface: 'control-plane', method: 'GET', path: '/v2/deployments', success: 200, carries: [{ type: 'Deployment', at: 'items' }], anchor: '4.1/get-v2-deployments' },
  { interface: 'control-plane', method: 'GET', path: '/v2/deployments/{deployment_id}', success: 200, carries: [{ type: 'Deployment', at: 'body' }], anchor: '4.1/get-v2-deployments-deployment_id' },
  { interface: 'control-plane', method: 'PATCH', path: '/v2/deployments/{deployment_id}', success: 200, carries: [{ type: 'Deployment', at: 'body' }], request: 'DeploymentPatchRequest', anchor: '4.1/patch-v2-deployments-deployment_id' },
  { interface: 'control-plane', method: 'DELETE', path: '/v2/deployments/{deployment_id}', success: 204, anchor: '4.1/delete-v2-deployments-deployment_id' },
  { interface: 'control-plane', method: 'GET', path: '/v2/deployments/{deployment_id}/revisions', success: 200, carries: [{ type: 'Revision', at: 'items' }], anchor: '4.1/get-v2-deployments-deployment_id-revisions' },
  { interface: 'control-plane', method: 'GET', path: '/v2/deployments/{deployment_id}/revisions/{revision_id}', success: 200, carries: [{ type: 'Revision', at: 'body' }], anchor: '4.1/get-v2-deployments-deployment_id-revisions-revision_id' },
  { interface: 'agent-server', method: 'POST', path: '/assistants', success: 200, carries: [{ type: 'Assistant', at: 'body' }], request: 'AssistantCreateRequest', anchor: '4.2/post-assistants' },
  { interface: 'agent-server', method: 'PATCH', path: '/assistants/{assistant_id}', success: 200, carries: [{ type: 'Assistant', at: 'body' }], request: 'AssistantPatchRequest', anchor: '4.2/patch-assistants-assistant_id' },
  { interface: 'agent-server', method: 'POST', path: '/assistants/search', success: 200, carries: [{ type: 'Assistant', at: 'items' }], anchor: '4.2/post-assistants-search' },
  { interface: 'agent-server', method: 'POST', path: '/threads', success: 200, carries: [{ type: 'Thread', at: 'body' }], anchor: '4.2/post-threads' },
  {
    interface: 'experiment-upload',
    method: 'POST',
    path: '/api/v1/datasets/upload-experiment',
    success: 200,
    carries: [
      { type: 'UploadedDataset', at: 'member:dataset' },
      { type: 'UploadedExperiment', at: 'member:experiment' },
    ],
    request: 'ExperimentUploadRequest',
    anchor: '4.3/post-api-v1-datasets-upload-experiment',
  },
];

/** Refusal codes the spec gives (section 7, control plane PATCH); each may be swapped for another. */
export const REFUSALS: Record<number, number> = { 400: 422, 422: 400, 404: 400 };

/** Whether `path` (query ignored) is the endpoint's; path parameters match one segment. */
export function matches(endpoint: Endpoint, method: string, path: string): boolean {
  if (method !== endpoint.method) return false;
  const pattern = new RegExp(`^${endpoint.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
  return pattern.test(path.split('?')[0]!);
}
