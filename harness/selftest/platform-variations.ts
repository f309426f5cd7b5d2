// Valid variations from the real hosted platform: the reference with one platform-like behaviour
// switched on (reference-impl/platform-like/README.md), on a clock ten times faster. Throttling and
// transient errors act on every interface, so each interface gets its own; the rest are the control
// plane's. A false alarm on any of them is the harness mistaking the platform's environment for a
// deviation.
import type { PlatformBehaviour } from '../../reference-impl/platform-like/behaviours.ts';
import type { InterfaceName } from '../profile/profile.ts';
import type { Variation } from './subjects.ts';

/** Phases of 150 ms, deletions of 300 ms, throttling windows of 100 ms. */
const TIME_SCALE = 0.1;

const SHORT: Record<InterfaceName, string> = { 'control-plane': 'cp', 'agent-server': 'as', 'experiment-upload': 'eu' };

function platformVariation(iface: InterfaceName, name: string, behaviours: PlatformBehaviour[], what: string): Variation {
  return { kind: 'variation', id: `${SHORT[iface]}.platform-${name}`, what, interface: iface, platformLike: { behaviours, timeScale: TIME_SCALE } };
}

export function platformVariations(): Variation[] {
  const everywhere = (['control-plane', 'agent-server', 'experiment-upload'] as const).flatMap((iface) => [
    platformVariation(iface, 'throttle', ['throttle'], 'Past 15 requests of a key in 100 ms the target answers 429 {"detail":"Rate limit exceeded"} with Retry-After: 0.1 (1 s of the platform at this time scale), unprocessed.'),
    platformVariation(iface, 'transient-errors', ['transient-errors'], 'About one GET in 40 is answered 503 {"detail":"Service temporarily unavailable"} with Retry-After: 0.1 (1 s of the platform at this time scale), unprocessed.'),
  ]);
  return [
    platformVariation('control-plane', 'slow-builds', ['slow-builds'], 'Each revision phase (queued, building, deploying) takes 150 ms instead of 10 ms.'),
    platformVariation('control-plane', 'async-delete', ['async-delete'], 'DELETE answers 204; the deployment stays readable and listed as AWAITING_DELETE for 300 ms, then 404.'),
    platformVariation(
      'control-plane',
      'busy-deployments',
      ['busy-deployments', 'slow-builds'],
      'A revision-creating PATCH while the latest revision is in progress (phases of 150 ms) is refused with 409 {"detail":"A revision is already in progress for this deployment."}.',
    ),
    platformVariation('control-plane', 'small-pages', ['small-pages'], 'Listings answer at most 10 items, whatever limit asks.'),
    platformVariation('control-plane', 'many-deployments', ['many-deployments'], 'The tenant already holds 120 READY deployments before the run.'),
    ...everywhere,
  ];
}
