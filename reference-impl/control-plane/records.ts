// What the control plane stores: deployments and revisions in their response shapes (spec 2.1,
// 2.6 and the field notes), plus the bookkeeping the API does not show.
import type { Deployment, Revision } from './api-types.ts';

/** A revision with the fields that drive its progress. */
export interface StoredRevision {
  deploymentId: string;
  /** Position in the deployment's history, 1 for the first revision; orders revisions created in the same millisecond. */
  seq: number;
  /** Epoch milliseconds of the next status change; null once the status is terminal. */
  nextTransitionAt: number | null;
  /** The revision's source tarball had not been uploaded when the revision was requested: its build fails. */
  tarballMissing: boolean;
  revision: Revision;
}

/** An upload location handed out by `POST .../upload-url`. */
export interface UploadGrant {
  /** The unguessable part of `upload_url`. */
  token: string;
  tenantId: string;
  deploymentId: string;
  objectPath: string;
  /** Epoch milliseconds after which the upload URL is refused. */
  expiresAt: number;
  uploaded: boolean;
}

/** What one change of a deployment writes, all or nothing. */
export interface DeploymentChange {
  deployment: Deployment;
  newRevision?: StoredRevision;
  /** Existing revisions of this deployment whose status changed. */
  updatedRevisions?: StoredRevision[];
}

export type { Deployment, Revision };
