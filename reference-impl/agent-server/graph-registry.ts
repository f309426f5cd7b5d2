// The graphs a server serves: the built-in fixtures plus those a graph configuration file
// (`graph.json`: `{"graphs": {"<graph id>": "./module.ts:exportName"}}`) registers.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { compileForeignSchema } from '../../schemas/index.ts';
import type { ValidationIssue } from '../http-errors.ts';
import type { Graph, RegisteredGraph } from './graph.ts';
import { echo } from './graphs/echo.ts';
import { fail } from './graphs/fail.ts';

const BUILT_IN: Record<string, Graph> = { echo, fail };

/** RFC 4122 URL namespace, used to derive each graph's default assistant id (uuid v5). */
const DEFAULT_ASSISTANT_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** Deterministic uuid v5 of `name` in `namespace`. */
export function uuidV5(name: string, namespace = DEFAULT_ASSISTANT_NAMESPACE): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class GraphRegistry {
  private readonly contextValidators = new Map<string, ValidateFunction>();

  constructor(private readonly graphs: ReadonlyMap<string, RegisteredGraph>) {
    for (const [id, { graph }] of graphs) {
      if (graph.contextSchema) this.contextValidators.set(id, compileForeignSchema(graph.contextSchema));
    }
  }

  get ids(): string[] {
    return [...this.graphs.keys()];
  }

  get(graphId: string): RegisteredGraph | undefined {
    return this.graphs.get(graphId);
  }

  /** The id of the system-created assistant of a graph. */
  defaultAssistantId(graphId: string): string {
    return uuidV5(graphId);
  }

  /** Problems of a context object against the graph's context schema (none when it has none). */
  contextIssues(graphId: string, context: unknown, loc: (string | number)[]): ValidationIssue[] {
    const validate = this.contextValidators.get(graphId);
    if (!validate || validate(context)) return [];
    return (validate.errors ?? []).map((e) => ({
      loc: [...loc, ...e.instancePath.split('/').filter(Boolean)],
      msg: `Context does not match the context schema of graph "${graphId}": ${e.message ?? 'invalid'}.`,
      type: `context_${e.keyword}`,
    }));
  }
}

function describeShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it is not an object';
  const graph = value as Partial<Graph>;
  if (!Array.isArray(graph.nodes) || graph.nodes.length === 0) return '`nodes` is not a non-empty array';
  const names = new Set<string>();
  for (const node of graph.nodes) {
    if (typeof node?.name !== 'string' || node.name === '') return 'a node has no `name` string';
    if (typeof node.run !== 'function') return `node "${node.name}" has no \`run\` function`;
    if (names.has(node.name)) return `node name "${node.name}" is used twice`;
    names.add(node.name);
  }
  if (graph.reducers !== undefined && Object.values(graph.reducers).some((r) => typeof r !== 'function')) {
    return '`reducers` holds something other than functions';
  }
  return undefined;
}

async function loadEntry(graphId: string, spec: unknown, baseDir: string, configPath: string): Promise<Graph> {
  const where = `graph "${graphId}" in ${configPath}`;
  if (typeof spec !== 'string' || !/^.+:[A-Za-z_$][\w$]*$/.test(spec)) {
    throw new Error(`${where}: expected "./path/to/module.ts:exportName", saw ${JSON.stringify(spec)}.`);
  }
  const colon = spec.lastIndexOf(':');
  const modulePath = resolve(baseDir, spec.slice(0, colon));
  const exportName = spec.slice(colon + 1);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${where}: could not import ${modulePath}: ${(error as Error).message}`);
  }
  const graph = module[exportName];
  const problem = describeShapeProblem(graph);
  if (problem) {
    throw new Error(`${where}: export "${exportName}" of ${modulePath} is not a graph (${problem}); see the Graph interface in reference-impl/agent-server/graph.ts.`);
  }
  return graph as Graph;
}

/** The built-in graphs plus those of the configuration file, if one is given. */
export async function loadGraphs(configPath: string | undefined): Promise<GraphRegistry> {
  const graphs = new Map<string, RegisteredGraph>(
    Object.entries(BUILT_IN).map(([graphId, graph]) => [graphId, { graphId, graph, source: 'built-in' }]),
  );
  if (configPath !== undefined) {
    const path = resolve(configPath);
    let config: unknown;
    try {
      config = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new Error(`Graph configuration ${path} could not be read as JSON: ${(error as Error).message}`);
    }
    const entries = (config as { graphs?: unknown } | null)?.graphs;
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
      throw new Error(`Graph configuration ${path}: expected {"graphs": {"<graph id>": "./module.ts:exportName"}}.`);
    }
    for (const [graphId, spec] of Object.entries(entries)) {
      if (graphs.has(graphId)) throw new Error(`Graph configuration ${path}: graph id "${graphId}" is built in; choose another id.`);
      const graph = await loadEntry(graphId, spec, dirname(path), path);
      graphs.set(graphId, { graphId, graph, source: `${path}#${graphId}` });
    }
  }
  return new GraphRegistry(graphs);
}
