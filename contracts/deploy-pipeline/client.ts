// The deploy-pipeline consumer: a CI/CD job driving the control plane (spec 4.1's recommended
// flow). It stands for a consumer team's own code, so it uses plain fetch, nothing of the harness.
// The base URL is the control plane's: the host for hosted use, `<host>/api-host` self-hosted.
import { jsonAnswer } from '../api-error.ts';

export interface CreatedDeployment {
  id: string;
  latest_revision_id: string;
}

export interface Revision {
  id: string;
  status: string;
}

export class DeployPipeline {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly tenantId: string,
  ) {}

  private send<T>(method: string, path: string, body?: unknown): Promise<T> {
    return fetch(this.baseUrl + path, {
      method,
      headers: {
        'X-Api-Key': this.apiKey,
        'X-Tenant-Id': this.tenantId,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then((response) => jsonAnswer<T>(response));
  }

  createDeployment(name: string, imageUri: string, secrets: { name: string; value: string }[]): Promise<CreatedDeployment> {
    return this.send('POST', '/v2/deployments', {
      name,
      source: 'internal_container',
      source_config: {},
      source_revision_config: { image_uri: imageUri },
      secrets,
    });
  }

  getDeployment(id: string): Promise<CreatedDeployment & { status: string }> {
    return this.send('GET', `/v2/deployments/${id}`);
  }

  /** The newest revision first, as the spec promises. */
  async listRevisions(id: string): Promise<Revision[]> {
    return (await this.send<{ resources: Revision[] }>('GET', `/v2/deployments/${id}/revisions`)).resources;
  }

  getRevision(id: string, revisionId: string): Promise<Revision> {
    return this.send('GET', `/v2/deployments/${id}/revisions/${revisionId}`);
  }

  /** Rolls out a new image: one new revision. */
  rollOut(id: string, patch: unknown): Promise<CreatedDeployment> {
    return this.send('PATCH', `/v2/deployments/${id}`, patch);
  }

  async deleteDeployment(id: string): Promise<void> {
    await this.send('DELETE', `/v2/deployments/${id}`);
  }
}
