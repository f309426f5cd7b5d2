// `--platform-like [LIST]` of `apc serve` and `--reference-platform-like [LIST]` of `apc certify`:
// the reference behaving as the real hosted platform does (reference-impl/platform-like/README.md).
import { parseBehaviours, type PlatformLikeOptions } from '../../reference-impl/platform-like/behaviours.ts';
import { UsageError } from '../usage-error.ts';

/** `flag` given without a list (last, or before another flag) means all behaviours. */
export function expandBareFlag(argv: string[], flag: string): string[] {
  return argv.map((arg, i) => (arg === flag && (i === argv.length - 1 || argv[i + 1]!.startsWith('-')) ? `${flag}=all` : arg));
}

/** The platform-like options of a behaviour list and a time scale, or undefined without a list. */
export function platformLikeOption(flag: string, list: string | undefined, scaleFlag: string, scale: string | undefined): PlatformLikeOptions | undefined {
  if (list === undefined) {
    if (scale !== undefined) throw new UsageError(`${scaleFlag} applies only with ${flag}.`);
    return undefined;
  }
  const behaviours = parseBehaviours(list);
  if (typeof behaviours === 'string') throw new UsageError(`${flag}: ${behaviours}`);
  const timeScale = scale === undefined ? 1 : Number(scale);
  if (!Number.isFinite(timeScale) || timeScale <= 0) throw new UsageError(`${scaleFlag}: expected a number above 0 (0.1 runs the platform's clock ten times faster), found ${JSON.stringify(scale)}.`);
  return { behaviours, timeScale };
}
