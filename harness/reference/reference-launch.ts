// What the two ways of starting the reference share: the settings of one start, what a started
// one reports, and how its storage is described. Its own file so that reference-target.ts (which
// chooses) and reference-container.ts (one of the choices) do not import each other.
import type { ApiKeyGrant } from '../../reference-impl/options.ts';
import type { PlatformLikeOptions } from '../../reference-impl/platform-like/behaviours.ts';
import type { ReferenceInstance } from '../../schemas/compliance-report.ts';
import type { ControlPlaneMode, InterfaceName } from '../profile/profile.ts';
import type { PostgresContainer } from './postgres-container.ts';

/** How the reference was started: its listeners' URLs, and what to stop. */
export interface StartedReference {
  urls: Record<InterfaceName, string>;
  instance: ReferenceInstance;
  close(): Promise<void>;
}

/** Settings of one start that the process and container starters share. */
export interface ReferenceLaunch {
  mode: ControlPlaneMode;
  grants: ApiKeyGrant[];
  faults: string[];
  phaseMs: number;
  statsDelayMs: number;
  platformLike: PlatformLikeOptions | undefined;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

export function databaseOf(database: PostgresContainer | undefined): Pick<ReferenceInstance, 'database' | 'databaseImage'> {
  return database ? { database: 'postgres', databaseImage: database.image } : { database: 'memory' };
}
