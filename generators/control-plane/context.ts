// What the control-plane generators need to know about the target: its mode, the sources it
// offers, the fixtures valid payloads must name, and the prefix every deployment name carries.
// The shapes match the harness profile's, so a suite passes `t.profile` values straight in.
import type { Source } from '../../schemas/index.ts';

export type Mode = 'hosted' | 'self-hosted';

export interface GeneratorFixtures {
  gitforge: { integrationId?: string; repoUrl: string; repoRef: string; otherRepoRef?: string; graphConfigPath: string };
  imageUri: string;
  /** A second image URI (another tag), so a PATCH can change a revision-relevant value. */
  otherImageUri?: string;
  listenerId?: string;
  clusterNamespace?: string;
}

export interface GeneratorContext {
  mode: Mode;
  /** Sources the target offers (only those valid for the mode are generated as valid). */
  sources: readonly Source[];
  fixtures: GeneratorFixtures;
  /** Every generated deployment name starts with this (the run's prefix). */
  namePrefix: string;
}

/** gitforge is hosted only, external_container self-hosted only (spec 2.1). */
export function sourceAllowed(mode: Mode, source: Source): boolean {
  if (source === 'gitforge') return mode === 'hosted';
  if (source === 'external_container') return mode === 'self-hosted';
  return true;
}

/** The sources a valid create may use on this target. */
export function validSources(ctx: GeneratorContext): Source[] {
  return ctx.sources.filter((s) => sourceAllowed(ctx.mode, s));
}
