// How the control-plane mutant proxies read the traffic they bend: routes, a PATCH's revision
// triggers and which no-revision rule a PATCH without triggers exercises (spec 3, 4.1).
import { describe, expect, test } from 'vitest';
import { noTriggerKind, routeOf, triggersOf } from '../../harness/selftest/mutants/deployment-traffic.ts';

describe('routeOf', () => {
  test('names the deployment and revision a path is about, query ignored', () => {
    expect(routeOf('/v2/deployments')).toEqual({ collection: true, revisions: false });
    expect(routeOf('/v2/deployments?name_contains=x')).toEqual({ collection: true, revisions: false });
    expect(routeOf('/v2/deployments/d1?delete_tracing_project=true')).toEqual({ collection: false, deploymentId: 'd1', revisions: false });
    expect(routeOf('/v2/deployments/d1/revisions?limit=1')).toEqual({ collection: false, deploymentId: 'd1', revisions: true });
    expect(routeOf('/v2/deployments/d1/revisions/r1')).toEqual({ collection: false, deploymentId: 'd1', revisions: true, revisionId: 'r1' });
    expect(routeOf('/v2/deployments/d1/upload-url')).toEqual({ collection: false, revisions: false });
  });
});

describe('triggersOf', () => {
  test('lists each non-null trigger of section 3', () => {
    expect(triggersOf({ source_revision_config: { image_uri: 'i', repo_ref: null }, secrets: [{ name: 'A', value: 'b' }] })).toEqual(['image_uri', 'secrets']);
    expect(triggersOf({ source_config: { resource_spec: { cpu: 1 } } })).toEqual(['resource_spec']);
    expect(triggersOf({ source_config: { resource_spec: null, custom_url: 'https://x' }, secrets: null })).toEqual([]);
  });
});

describe('noTriggerKind', () => {
  test('names the no-revision rule a valid PATCH without triggers exercises', () => {
    expect(noTriggerKind({})).toBe('empty');
    expect(noTriggerKind({ source_config: { build_on_push: false } })).toBe('source_config');
    expect(noTriggerKind({ source_config: {}, secrets: null })).toBe('null members');
    expect(noTriggerKind({ source_revision_config: { image_uri: null }, secrets: null, source_config: null })).toBe('null members');
  });

  test('leaves out PATCHes with a trigger, an immutable field or a value of the wrong type', () => {
    expect(noTriggerKind({ secrets: [{ name: 'A', value: 'b' }] })).toBeUndefined();
    expect(noTriggerKind({ name: 'other' })).toBeUndefined();
    expect(noTriggerKind({ source_revision_config: 'main' })).toBeUndefined();
    expect(noTriggerKind({ source_config: 5 })).toBeUndefined();
    expect(noTriggerKind({ revision_source: 'ftp' })).toBeUndefined();
  });
});
