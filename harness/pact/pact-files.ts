// Pact files as the contracts harness reads them: who the consumer and provider are, and per
// interaction its description, the requirement ids it relies on (the `requirements` comment the
// consumer tests write, space-separated) and whether its response is an event stream.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.ts';
import { UsageError } from '../usage-error.ts';

/** Where the consumer tests in contracts/ write their pact files. */
export const DEFAULT_PACT_DIR = join(ROOT, 'contracts', 'pacts');

export class PactFileError extends UsageError {}

export interface PactInteraction {
  description: string;
  requirements: string[];
  /** Names of the provider states it is given. */
  states: string[];
  /** The expected response is `text/event-stream`. */
  streamed: boolean;
}

export interface PactFile {
  path: string;
  consumer: string;
  provider: string;
  interactions: PactInteraction[];
}

interface RawInteraction {
  description?: unknown;
  comments?: { requirements?: unknown };
  providerStates?: { name?: unknown }[];
  response?: { headers?: Record<string, unknown>; body?: { contentType?: unknown } };
}

function isStreamed(interaction: RawInteraction): boolean {
  const declared = interaction.response?.body?.contentType;
  const header = Object.entries(interaction.response?.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return [declared, ...(Array.isArray(header) ? header : [header])].some((v) => typeof v === 'string' && v.startsWith('text/event-stream'));
}

export function readPactFile(path: string): PactFile {
  let doc: { consumer?: { name?: unknown }; provider?: { name?: unknown }; interactions?: unknown };
  try {
    doc = JSON.parse(readFileSync(path, 'utf8')) as typeof doc;
  } catch (error) {
    throw new PactFileError(`${path}: not a readable pact file (${(error as Error).message}).`);
  }
  const consumer = doc.consumer?.name;
  const provider = doc.provider?.name;
  if (typeof consumer !== 'string' || typeof provider !== 'string' || !Array.isArray(doc.interactions)) {
    throw new PactFileError(`${path}: expected a pact file with consumer.name, provider.name and interactions.`);
  }
  const interactions = (doc.interactions as RawInteraction[]).map((i) => {
    const ids = i.comments?.requirements;
    return {
      description: String(i.description ?? ''),
      requirements: typeof ids === 'string' ? ids.split(/\s+/).filter(Boolean) : [],
      states: (i.providerStates ?? []).map((s) => String(s.name)),
      streamed: isStreamed(i),
    };
  });
  return { path, consumer, provider, interactions };
}

/** Every pact file (`*.json`) in a folder; none when the folder does not exist. */
export function readPactDir(dir: string): PactFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readPactFile(join(dir, name)));
}
