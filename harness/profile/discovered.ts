// What probing a target found (harness/discovery/): each setting with how it was found. The
// profile's writer (\`apc init\`) and a run without a profile read it; the probing itself sends
// requests, so it stands above http/ and sse/ while this record stays on the profile's floor.
import type { AgentServerHosting, BusyPatch, ControlPlaneMode, OptionalEndpoint, SourceKind, TargetProfile } from './profile.ts';

/** One discovered setting and how it was found. */
export interface Finding {
  /** Profile key path, e.g. `sources`, `endpoints`, `fixtures.failingGraphId`. */
  key: string;
  how: string;
}

export interface Discovery {
  controlPlaneMode?: ControlPlaneMode;
  agentServerHosting?: AgentServerHosting;
  sources?: SourceKind[];
  /** Per source kind: why it is in or out. */
  sourceNotes: Partial<Record<SourceKind, string>>;
  endpoints: OptionalEndpoint[];
  endpointNotes: Partial<Record<OptionalEndpoint, string>>;
  fixtures: Partial<Omit<TargetProfile['fixtures'], 'gitforge'>> & { gitforge?: { integrationId?: string } };
  /** The second key was accepted (undefined: none given). */
  otherTenant?: boolean;
  /** How a revision-creating PATCH while a revision is in progress was answered (undefined: could not tell). */
  busyPatch?: BusyPatch;
  notes: Finding[];
}
