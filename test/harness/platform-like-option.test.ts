// The platform-like flags of `apc serve` and `apc certify`: a bare flag means every behaviour, a
// list names some, and a bad name or time scale is a usage error naming what to write.
import { describe, expect, it } from 'vitest';
import { expandBareFlag, platformLikeOption } from '../../harness/cli/platform-like-option.ts';
import { UsageError } from '../../harness/usage-error.ts';
import { PLATFORM_BEHAVIOURS } from '../../reference-impl/platform-like/behaviours.ts';

describe('platform-like flags', () => {
  it('reads a bare flag, last or before another flag, as all', () => {
    expect(expandBareFlag(['--platform-like'], '--platform-like')).toEqual(['--platform-like=all']);
    expect(expandBareFlag(['--platform-like', '--log'], '--platform-like')).toEqual(['--platform-like=all', '--log']);
    expect(expandBareFlag(['--platform-like', 'throttle'], '--platform-like')).toEqual(['--platform-like', 'throttle']);
  });

  it('gives the behaviours and the time scale, or nothing without the flag', () => {
    expect(platformLikeOption('--p', 'all', '--t', undefined)).toEqual({ behaviours: [...PLATFORM_BEHAVIOURS], timeScale: 1 });
    expect(platformLikeOption('--p', 'throttle,async-delete', '--t', '0.1')).toEqual({ behaviours: ['throttle', 'async-delete'], timeScale: 0.1 });
    expect(platformLikeOption('--p', undefined, '--t', undefined)).toBeUndefined();
  });

  it('refuses an unknown behaviour, a time scale not above 0, and a time scale alone', () => {
    expect(() => platformLikeOption('--p', 'throttling', '--t', undefined)).toThrow(new UsageError('--p: unknown platform-like behaviour "throttling"; use all, or some of ' + PLATFORM_BEHAVIOURS.join(', ') + '.'));
    expect(() => platformLikeOption('--p', 'all', '--t', '0')).toThrow(/--t: expected a number above 0/);
    expect(() => platformLikeOption('--p', 'all', '--t', 'fast')).toThrow(/--t: expected a number above 0/);
    expect(() => platformLikeOption('--p', undefined, '--t', '0.1')).toThrow('--t applies only with --p.');
  });
});
