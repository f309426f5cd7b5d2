// Control-plane types in their wire shapes, from the project's schemas (spec section 2).
import type { Revision as RevisionSchema } from '../../schemas/index.ts';

export type {
  Deployment,
  DeploymentCreateRequest,
  DeploymentPatchRequest,
  DeploymentStatus,
  ResourceSpec,
  ResourceSpecOutput,
  Source,
  SourceConfig,
  SourceConfigRequest,
  SourceRevisionConfig,
  SourceRevisionConfigRequest,
} from '../../schemas/index.ts';

/** A revision as stored and returned: every field the field notes list, none optional. */
export type Revision = Required<RevisionSchema>;
