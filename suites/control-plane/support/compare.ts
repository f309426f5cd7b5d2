// Comparing what a create or PATCH sent with what the control plane reports: values as sent,
// except CPU values of a resource_spec, which are reported rounded (spec 2.4).
import { CPU_FIELDS, isRoundedFrom } from '../../../generators/control-plane/cpu.ts';
import { isSet } from '../../../generators/control-plane/source-rules.ts';
import { isObject } from '../../../schemas/is-object.ts';

type Json = Record<string, unknown>;

/** JSON equality regardless of key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => isSet(a[k]) || isSet(b[k])));
    return [...keys].every((k) => sameJson(a[k] ?? null, b[k] ?? null));
  }
  return a === b;
}

/** Fields of a sent resource_spec the returned one does not hold (CPU values compared rounded). */
export function resourceSpecMismatches(sent: unknown, returned: unknown): string[] {
  if (!isObject(sent)) return [];
  const reported = isObject(returned) ? returned : {};
  return Object.keys(sent).filter((key) => {
    const value = sent[key];
    if (!isSet(value)) return false;
    if ((CPU_FIELDS as readonly string[]).includes(key) && typeof value === 'number') return !isRoundedFrom(value, reported[key]);
    return !sameJson(value, reported[key]);
  });
}

/** Members set in `sent` (one level, resource_spec deeper) that `returned` does not hold. */
export function configMismatches(sent: unknown, returned: unknown): string[] {
  if (!isObject(sent)) return [];
  const reported = isObject(returned) ? returned : {};
  return Object.keys(sent).flatMap((key) => {
    const value = sent[key];
    if (!isSet(value)) return [];
    if (key === 'resource_spec') return resourceSpecMismatches(value, reported[key]).map((f) => `resource_spec.${f}`);
    if (key === 'listener_config' && isObject(value)) {
      return isSet(value.cluster_namespace) && value.cluster_namespace !== (reported[key] as Json | null | undefined)?.cluster_namespace
        ? ['listener_config.cluster_namespace']
        : [];
    }
    return sameJson(value, reported[key]) ? [] : [key];
  });
}
