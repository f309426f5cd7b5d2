// Verifies pact files against a provider with Pact's own verifier: provider states are set up
// through the target's HTTP interface, the profile's key (and tenant) replace the consumer's
// example credentials on every request, and event streams are judged again by the harness's SSE
// checker. The result names, per interaction, the requirements it relies on and what failed.
import type { IncomingMessage } from 'node:http';
import type { ControlPlaneMode, InterfaceName, TargetProfile } from '../profile/profile.ts';
import { redactor } from '../redact.ts';
import type { PactFile } from './pact-files.ts';
import { providerStates, runTag, StateError } from './provider-states.ts';
import { startStreamCheckProxy, type StreamCheckProxy } from '../proxy/stream-check-proxy.ts';
import { UsageError } from '../usage-error.ts';

/** Providers the consumer pacts here name, and the interface (and mode) each one is. */
export const PROVIDERS: Record<string, { iface: InterfaceName; mode?: ControlPlaneMode }> = {
  'control-plane': { iface: 'control-plane', mode: 'hosted' },
  'control-plane-self-hosted': { iface: 'control-plane', mode: 'self-hosted' },
  'agent-server': { iface: 'agent-server' },
  'experiment-upload': { iface: 'experiment-upload' },
};

const SELF_HOSTED_PREFIX = '/api-host';

export class ContractsError extends UsageError {}

export interface InteractionResult {
  consumer: string;
  provider: string;
  description: string;
  requirements: string[];
  passed: boolean;
  problems: string[];
}

export interface PublishResults {
  brokerUrl: string;
  token?: string;
  providerVersion: string;
  branch?: string;
}

export interface VerifyOptions {
  profile: TargetProfile;
  /** Publish the results to a Pact Broker (the pacts are then fetched from it, see README). */
  publish?: PublishResults;
}

/** The interface (and control plane mode) a pact's provider is. */
export function providerOf(pact: PactFile): { iface: InterfaceName; mode?: ControlPlaneMode } {
  const provider = PROVIDERS[pact.provider];
  if (!provider) throw new ContractsError(`${pact.path}: provider "${pact.provider}" is none of ${Object.keys(PROVIDERS).join(', ')}.`);
  return provider;
}

/** The pacts this profile can verify: a URL for the provider's interface, and its control plane mode. */
export function verifiable(pact: PactFile, profile: TargetProfile): boolean {
  const { iface, mode } = providerOf(pact);
  return profile.urls[iface] !== undefined && (mode === undefined || mode === profile.controlPlaneMode);
}

/** The base URL Pact sends the pact's paths to: self-hosted paths carry /api-host themselves. */
function providerBase(profile: TargetProfile, iface: InterfaceName, mode: ControlPlaneMode | undefined): string {
  const url = profile.urls[iface]!;
  if (mode !== 'self-hosted') return url;
  if (!url.endsWith(SELF_HOSTED_PREFIX)) {
    throw new ContractsError(`A self-hosted control plane URL ends with ${SELF_HOSTED_PREFIX} (spec 1.A), as for certify; found ${url}.`);
  }
  return url.slice(0, -SELF_HOSTED_PREFIX.length);
}

interface CoreResults {
  errors?: { interaction?: string; mismatch?: { type?: string; message?: string; mismatches?: { mismatch?: string; path?: string }[] } }[];
  interactionResults?: { description: string; result: string }[];
}

function parseResults(text: string): CoreResults | undefined {
  try {
    return JSON.parse(text) as CoreResults;
  } catch {
    return undefined;
  }
}

const SHOWN = 1_000;

/** Pact's mismatch lines; a whole-body pattern makes them long, so each is cut to a readable size. */
function mismatchTexts(error: NonNullable<CoreResults['errors']>[number]): string[] {
  const list = error.mismatch?.mismatches?.map((m) => (m.path ? `${m.path}: ${m.mismatch}` : String(m.mismatch))) ?? [];
  const texts = list.length > 0 ? list : [error.mismatch?.message ?? JSON.stringify(error.mismatch ?? error)];
  return texts.map((t) => (t.length > SHOWN ? `${t.slice(0, SHOWN)}… (${t.length} characters; the pact file holds the pattern)` : t));
}

/**
 * Pact's verifier sends a pact's body without a Content-Type when the pact names none, and the
 * verification proxy Pact puts in front of the provider (for the request filter and provider
 * states) forwards only the bodies its parsers read, which need a Content-Type: it sent such a
 * request on with its Content-Length and no body, so it never ended and the verifier gave up
 * after its timeout ("error sending request"). Read here, the body is forwarded as sent.
 */
async function keepUntypedBody(req: IncomingMessage & { body?: unknown }): Promise<void> {
  if (req.body !== undefined || req.readableEnded || req.headers['content-type'] !== undefined) return;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length > 0) req.body = Buffer.concat(chunks);
}

/**
 * Verifies one pact in this process. Pact's native verifier prints its own account of every
 * interaction (and "There were N pact failures") straight to this process's standard output, and no
 * option turns that off: callers use `verifyPact` (verifier-process.ts), which runs this in a process
 * of its own and keeps that output for when the verifier cannot run.
 */
export async function verifyHere(pact: PactFile, options: VerifyOptions): Promise<InteractionResult[]> {
  const { profile } = options;
  const { iface, mode } = providerOf(pact);
  const base = providerBase(profile, iface, mode);
  // Pact reports usage to its makers unless told not to; loaded here, so other commands never load it.
  process.env.PACT_DO_NOT_TRACK ??= 'true';
  const { Verifier } = await import('@pact-foundation/pact');
  const states = providerStates(iface, profile, runTag());
  const stateErrors = new Map<string, string>();
  let proxy: StreamCheckProxy | undefined;
  try {
    if (iface === 'agent-server') proxy = await startStreamCheckProxy(base, profile.timeouts.streamMs);
    const stateHandlers = recordingErrors(states.handlers, stateErrors);
    const verifier = new Verifier({
      providerBaseUrl: proxy?.url ?? base,
      provider: pact.provider,
      logLevel: 'error',
      timeout: Math.max(profile.timeouts.requestMs, profile.timeouts.streamMs),
      stateHandlers,
      requestFilter: (req: IncomingMessage & { body?: unknown }, _res: unknown, next: () => void) => {
        if (profile.apiKey) req.headers['x-api-key'] = profile.apiKey;
        if (iface === 'control-plane') {
          if (profile.tenantId) req.headers['x-tenant-id'] = profile.tenantId;
          else delete req.headers['x-tenant-id'];
        }
        void keepUntypedBody(req).then(next);
      },
      ...(options.publish
        ? {
            pactBrokerUrl: options.publish.brokerUrl,
            ...(options.publish.token ? { pactBrokerToken: options.publish.token } : {}),
            consumerVersionSelectors: [
              { consumer: pact.consumer, mainBranch: true },
              { consumer: pact.consumer, deployedOrReleased: true },
            ],
            publishVerificationResult: true,
            providerVersion: options.publish.providerVersion,
            ...(options.publish.branch ? { providerVersionBranch: options.publish.branch } : {}),
          }
        : { pactUrls: [pact.path] }),
    });
    const text = await verifier.verifyProvider().then(
      (out) => String(out),
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const results = parseResults(text);
    if (!results) throw new ContractsError(`The Pact verifier could not run for ${pact.path}: ${redactor.text(text)}`);
    return interactionResults(pact, results, stateErrors, proxy);
  } finally {
    if (!profile.keep) await states.cleanup().catch(() => undefined);
    await proxy?.close();
  }
}

/** The provider-state handlers, each recording why it failed (by state name) in `errors` before it throws. */
function recordingErrors<H extends Record<string, () => Promise<unknown>>>(handlers: H, errors: Map<string, string>): H {
  return Object.fromEntries(
    Object.entries(handlers).map(([name, setup]) => [
      name,
      async () => {
        try {
          return await setup();
        } catch (error) {
          errors.set(name, error instanceof StateError ? error.message : `provider state "${name}": ${String(error)}`);
          throw error;
        }
      },
    ]),
  ) as H;
}

/** Each interaction of the pact with what the verifier, its provider states and the stream checker found of it. */
function interactionResults(
  pact: PactFile,
  results: NonNullable<ReturnType<typeof parseResults>>,
  stateErrors: Map<string, string>,
  proxy: StreamCheckProxy | undefined,
): InteractionResult[] {
  const order = (results.interactionResults ?? []).map((r) => r.description);
  const streamedInOrder = order.filter((d) => pact.interactions.find((i) => i.description === d)?.streamed);
  return pact.interactions.map((interaction) => {
    const problems: string[] = [];
    const outcome = results.interactionResults?.find((r) => r.description === interaction.description);
    for (const state of interaction.states) {
      const failed = stateErrors.get(state);
      if (failed) problems.push(failed);
    }
    for (const error of results.errors ?? []) {
      if (error.interaction?.endsWith(` - ${interaction.description}`)) problems.push(...mismatchTexts(error));
    }
    const finding = proxy?.findings[streamedInOrder.indexOf(interaction.description)];
    if (interaction.streamed && finding) {
      problems.push(...finding.failures.map((f) => `SSE checker: ${f.message} (expected ${f.expected}; seen ${f.seen})`));
    }
    if (!outcome) problems.push('The verifier did not report this interaction.');
    const passed = outcome?.result === 'OK' && problems.length === 0;
    return {
      consumer: pact.consumer,
      provider: pact.provider,
      description: interaction.description,
      requirements: interaction.requirements,
      passed,
      problems: problems.map((p) => redactor.text(p)),
    };
  });
}
