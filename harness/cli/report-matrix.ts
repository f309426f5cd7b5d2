// `apc report matrix DIR... [--out DIR]`: requirement × target from several report folders
// (harness/report/matrix.ts), written as matrix.md, matrix.html and matrix.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { loadCatalogue } from '../catalogue.ts';
import { buildMatrix } from '../report/matrix.ts';
import { renderMatrixHtml } from '../report/matrix-html.ts';
import { renderMatrixMarkdown } from '../report/matrix-markdown.ts';
import { readReport, ReportError } from '../report/read.ts';
import type { CommandIo } from './command.ts';
import { apcCommand } from '../apc-command.ts';

/** Where the matrix goes without --out: beside the reports `apc certify` writes by default. */
export const DEFAULT_MATRIX_DIR = join('reports', 'matrix');

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

export async function matrix(values: { out?: string }, positionals: string[], io: CommandIo): Promise<number> {
  if (positionals.length === 0) throw new ReportError(`expected one or more report folders, e.g. \`${apcCommand()} report matrix reports/reference reports/my-server\`.`);
  const reports = positionals.map((folder) => ({ folder, report: readReport(folder) }));
  const result = buildMatrix(
    reports,
    loadCatalogue().requirements.map((r) => r.id),
  );
  const out = resolve(values.out ?? DEFAULT_MATRIX_DIR);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'matrix.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(out, 'matrix.md'), renderMatrixMarkdown(result));
  writeFileSync(join(out, 'matrix.html'), renderMatrixHtml(result));
  io.out.write(`apc report matrix · ${result.targets.length} report(s) · ${result.requirements.length} requirement(s), ${result.differing.length} differing\n`);
  for (const t of result.targets) io.out.write(`  ${t.name.padEnd(20)} ${t.verdictLabel} · ${t.must}\n`);
  io.out.write(`matrix:  ${shown(join(out, 'matrix.md'))}, matrix.html, matrix.json\n`);
  return 0;
}
