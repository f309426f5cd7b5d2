// The loader: registry coverage of spec section 2, strict compilation, ids, and the two exports
// (standalone JSON Schema documents and OpenAPI components).
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ComplianceReportSchema } from '../../schemas/compliance-report.ts';
import { isDateTime } from '../../schemas/datetime-format.ts';
import { TargetProfileFileSchema } from '../../schemas/target-profile.ts';
import { JSON_SCHEMA_DIALECT, openApiComponents, schemaNames, schemas, toJsonSchema, validate, type SchemaName } from '../../schemas/index.ts';

// Every type spec section 2 names: the 2.1-2.4 tables and their variants, 2.5's nested types,
// 2.6-2.8's records, plus DeploymentPatchRequest (4.1), whose fields 2.x types make up.
const SPEC_SECTION_2_TYPES = [
  'Deployment', 'SourceConfig', 'SourceConfigRequest', 'ListenerConfig', 'SourceRevisionConfig',
  'SourceRevisionConfigRequest', 'ResourceSpec', 'ResourceSpecOutput', 'Secret', 'SecretReference',
  'LocalObjectReference', 'Volume', 'VolumeMount', 'Container', 'EnvVar', 'ResourceRequirements',
  'ValidationError', 'HTTPValidationError', 'Revision', 'Assistant', 'Thread', 'ExperimentUploadRequest',
  'Row', 'Feedback', 'ExperimentUploadResponse', 'DeploymentPatchRequest',
];

/** A fresh strict Ajv that records warnings instead of throwing, to show there are none. */
function strictAjv(warnings: string[]): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    logger: { log: () => undefined, warn: (...args: unknown[]) => void warnings.push(args.join(' ')), error: (...args: unknown[]) => void warnings.push(args.join(' ')) },
  });
  formats.default(ajv, ['uuid']);
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  return ajv;
}

describe('schema registry', () => {
  it('has a schema for every type spec section 2 names', () => {
    const missing = SPEC_SECTION_2_TYPES.filter((name) => !(name in schemas));
    expect(missing).toEqual([]);
  });

  it('gives every schema a URN $id matching its registry name and no host name', () => {
    for (const name of schemaNames) {
      expect(schemas[name].$id).toBe(`urn:apc:schema:${name}`);
    }
    const everyId = JSON.stringify(schemaNames.map((name) => toJsonSchema(name)));
    expect(everyId).not.toMatch(/"\$id":"https?:/);
  });

  it('compiles every schema in the loader (strict mode throws on any warning)', () => {
    for (const name of schemaNames) {
      expect(() => validate(name, null)).not.toThrow();
    }
  });

  it('holds only valid draft 2020-12 schemas, with the report and profile schemas: the loader does not check them again at run time', () => {
    const ajv = strictAjv([]);
    const own = [...schemaNames.map((name) => schemas[name]), ComplianceReportSchema, TargetProfileFileSchema];
    const invalid = own.filter((schema) => !ajv.validateSchema(JSON.parse(JSON.stringify(schema)) as object));
    expect(invalid.map((schema) => schema.$id ?? schema.title)).toEqual([]);
    expect(ajv.validateSchema({ type: 'strin' })).toBe(false);
  });

  it('refuses an unknown schema name with a message listing the known ones', () => {
    expect(() => validate('Nope' as SchemaName, {})).toThrow(/Unknown schema "Nope"; expected one of .*Deployment/);
  });
});

describe('toJsonSchema', () => {
  it('gives standalone draft 2020-12 documents that compile in strict mode without warnings', () => {
    const warnings: string[] = [];
    for (const name of schemaNames) {
      const document = toJsonSchema(name);
      expect(document.$schema).toBe(JSON_SCHEMA_DIALECT);
      expect(document.$id).toBe(`urn:apc:schema:${name}`);
      // A fresh instance per document: bundled $defs carry $ids that several documents share.
      expect(() => strictAjv(warnings).compile(document)).not.toThrow();
    }
    expect(warnings).toEqual([]);
  });

  it('bundles what a schema refers to, so the document validates like the loader', () => {
    const document = toJsonSchema('DeploymentCreateRequest');
    expect(Object.keys(document.$defs as object)).toEqual(
      expect.arrayContaining(['SourceConfigRequest', 'ResourceSpec', 'Container', 'EnvVar', 'Secret']),
    );
    const check = strictAjv([]).compile(document);
    const bad = {
      name: 'd',
      source: 'external_container',
      source_config: { resource_spec: { sidecars: [{ name: 'side' }] } },
      source_revision_config: {},
      secrets: [],
    };
    expect(check(bad)).toBe(false);
    expect(validate('DeploymentCreateRequest', bad).ok).toBe(false);
    const good = { ...bad, source_config: { resource_spec: { sidecars: [{ name: 'side', image: 'busybox:1' }] } } };
    expect(check(good)).toBe(true);
    expect(validate('DeploymentCreateRequest', good).ok).toBe(true);
  });

  it('is plain JSON: it survives a JSON round trip unchanged', () => {
    const document = toJsonSchema('Deployment');
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});

describe('openApiComponents', () => {
  const components = openApiComponents();
  const text = JSON.stringify(components);

  it('has every schema, without $id, referring only to components that exist', () => {
    expect(Object.keys(components.schemas).sort()).toEqual([...schemaNames].sort());
    expect(text).not.toContain('"$id"');
    expect(text).not.toContain('urn:apc:schema:');
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(components.schemas).toHaveProperty(ref as string);
  });

  it('describes request and response variants separately', () => {
    const source = components.schemas.SourceConfig as { properties: Record<string, unknown> };
    const request = components.schemas.SourceConfigRequest as { properties: Record<string, unknown> };
    expect(JSON.stringify(source.properties.resource_spec)).toContain('#/components/schemas/ResourceSpecOutput');
    expect(JSON.stringify(request.properties.resource_spec)).toContain('#/components/schemas/ResourceSpec"');
  });
});
