// The expected-failures baseline (`--expected-failures FILE`): the one owner of its grammar.
//   expected-failures:
//     - id: CP-REV-003
//       reason: Revisions are listed oldest first; fix tracked in ISSUE-12.
// A listed failure becomes `expected-failure`; a listed requirement that passes is stale and
// fails the run, so the baseline can only shrink.
import { readFileSync } from 'node:fs';
import type { Catalogue } from '../catalogue.ts';
import type { Baseline } from './compliance.ts';
import { UsageError } from '../usage-error.ts';
import { yaml } from '../yaml.ts';
import { closest } from '../closest.ts';

export class BaselineError extends UsageError {}

export function loadBaseline(file: string, catalogue: Catalogue): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BaselineError(`${file}: cannot read the expected-failures file (${(error as Error).message}).`);
  }
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = e.linePos?.[0];
    throw new BaselineError(`${file}:${at ? `${at.line}:${at.col}` : '?'}: not valid YAML: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const root = doc.contents;
  const top = doc.toJS() as { 'expected-failures'?: unknown } | null;
  if (!top || !Array.isArray(top['expected-failures'])) {
    throw new BaselineError(`${file}:1: expected a top-level \`expected-failures:\` list of {id, reason} entries.`);
  }
  const seq = (root as { get?: (key: string, keep: boolean) => unknown } | null)?.get?.('expected-failures', true) as
    | { items?: { range?: [number, number, number] }[] }
    | undefined;
  const entries = new Map<string, string>();
  top['expected-failures'].forEach((raw: unknown, index: number) => {
    const offset = seq?.items?.[index]?.range?.[0];
    const line = offset !== undefined ? lines.linePos(offset).line : '?';
    const where = `${file}:${line}`;
    const entry = raw as { id?: unknown; reason?: unknown } | null;
    if (!entry || typeof entry !== 'object') throw new BaselineError(`${where}: expected an entry {id, reason}, found ${JSON.stringify(raw)}.`);
    const extra = Object.keys(entry).filter((k) => k !== 'id' && k !== 'reason');
    if (extra.length > 0) throw new BaselineError(`${where}: unknown key(s) ${extra.join(', ')}; an entry has only id and reason.`);
    if (typeof entry.id !== 'string') throw new BaselineError(`${where}: expected \`id\`, a requirement id such as CP-REV-003.`);
    if (!catalogue.byId.has(entry.id)) {
      const near = closest(entry.id, catalogue.byId.keys(), 1)[0];
      throw new BaselineError(`${where}: unknown requirement id ${entry.id}; it is not in the catalogue.${near ? ` Did you mean ${near}?` : ''}`);
    }
    if (typeof entry.reason !== 'string' || entry.reason.trim().length === 0) {
      throw new BaselineError(`${where}: ${entry.id} needs a \`reason\` saying why the failure is expected.`);
    }
    if (entries.has(entry.id)) throw new BaselineError(`${where}: ${entry.id} is listed twice.`);
    entries.set(entry.id, entry.reason.trim());
  });
  return { entries };
}
