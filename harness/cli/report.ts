// `apc report merge DIR... [--reports OUT]`: shard reports become one report with one verdict.
// `apc report allure [DIR]`: renders a report's Allure results to HTML (no Java needed).
// `apc report diff OLD NEW [--out FILE]`: what changed between two runs (harness/report/diff.ts).
// `apc report matrix DIR... [--out DIR]`: requirement × target of several reports (report-matrix.ts).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '../catalogue.ts';
import { exitCodeOf, universeOf } from '../report/compliance.ts';
import { diffMarkdown, diffReports, hasRegression } from '../report/diff.ts';
import { mergeReports, writeMerged } from '../report/merge.ts';
import { readReport, ReportError } from '../report/read.ts';
import { Progress } from '../run/progress.ts';
import { command, type CommandIo } from './command.ts';
import { matrix } from './report-matrix.ts';
import { REPORT_USAGE } from './usage.ts';
import { apcCommand } from '../apc-command.ts';

/** A path as the user can type it: relative below the working directory, absolute elsewhere. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

async function merge(values: { reports?: string }, positionals: string[], io: CommandIo): Promise<number> {
  if (positionals.length === 0) throw new ReportError(`expected one or more report folders to merge, e.g. \`${apcCommand()} report merge reports/shard-1 reports/shard-2\`.`);
  const folders = positionals.map((dir) => ({ dir, report: readReport(dir) }));
  const catalogue = loadCatalogue();
  const sameCatalogue = folders[0]!.report.catalogue.hash === catalogue.hash;
  const runId = `merge-${randomBytes(3).toString('hex')}`;
  const report = mergeReports(folders, { runId, ...(sameCatalogue ? { order: catalogue.requirements.map((r) => r.id), universe: universeOf(catalogue) } : {}) });
  const out = resolve(values.reports ?? join('reports', runId));
  writeMerged(out, report);
  const progress = new Progress(io.out);
  progress.line(`apc report merge · ${folders.length} report(s): ${report.mergedFrom!.join(', ')} · seed ${report.seed} · catalogue ${report.catalogue.version}`);
  progress.summary(report, shown(out));
  return exitCodeOf(report.verdict);
}

/** The report folder written last under ./reports/ that has Allure results. */
function newestReport(): string {
  const base = resolve('reports');
  const candidates = existsSync(base)
    ? readdirSync(base)
        .map((name) => join(base, name))
        .filter((dir) => existsSync(join(dir, 'allure-results')))
    : [];
  if (candidates.length === 0) {
    throw new ReportError(`no report folder with allure-results under ${shown(base)}: run \`${apcCommand()} certify\` first, or give the report folder: ${apcCommand()} report allure DIR.`);
  }
  return candidates.reduce((a, b) => (statSync(join(b, 'allure-results')).mtimeMs > statSync(join(a, 'allure-results')).mtimeMs ? b : a));
}

async function allure(positionals: string[], io: CommandIo): Promise<number> {
  if (positionals.length > 1) throw new ReportError('expected at most one report folder.');
  const given = positionals[0] === undefined ? newestReport() : resolve(positionals[0]);
  // Accept the report folder or its allure-results folder.
  const reportDir = existsSync(join(given, 'allure-results')) ? given : dirname(given);
  const results = join(reportDir, 'allure-results');
  if (!existsSync(results)) throw new ReportError(`${given}: expected a report folder with allure-results inside, written by \`apc certify\`.`);
  const out = join(reportDir, 'allure-report');
  const cli = join(dirname(fileURLToPath(import.meta.resolve('allure'))), '..', 'cli.js');
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [cli, 'generate', results, '--output', out, '--report-name', `apc ${reportDir.split(/[\\/]/).at(-1)}`], {
      cwd: reportDir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (c) => {
      if (c !== 0) io.err.write(stderr);
      done(c);
    });
  });
  if (code !== 0) {
    io.err.write(`apc report allure: the allure generator exited with ${code}; see its message above.\n`);
    return 2;
  }
  io.out.write(`Allure report: ${shown(join(out, 'index.html'))}\n`);
  // Opened as a file, the page shows only a spinner: it loads its data over HTTP.
  io.out.write(`It loads its data over HTTP, so serve it to view it: npx allure open ${shown(out)}\n`);
  return 0;
}

async function diff(values: { out?: string }, positionals: string[], io: CommandIo): Promise<number> {
  if (positionals.length !== 2) throw new ReportError(`expected two report folders, the older first: \`${apcCommand()} report diff reports/last reports/new\`.`);
  const result = diffReports(readReport(positionals[0]!), readReport(positionals[1]!));
  const markdown = diffMarkdown(result);
  if (values.out) {
    writeFileSync(values.out, markdown);
    io.out.write(`diff written to ${shown(resolve(values.out))}\n`);
  } else io.out.write(markdown);
  return hasRegression(result) ? 1 : 0;
}

export async function report(argv: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv;
  const withFolders = { name: `report ${sub}`, usage: REPORT_USAGE, positionals: true };
  switch (sub) {
    case 'merge':
      return command({ ...withFolders, options: { reports: { type: 'string' } } }, rest, io, (v, folders) => merge(v, folders, io));
    case 'allure':
      return command({ ...withFolders, options: {} }, rest, io, (_v, folders) => allure(folders, io));
    case 'diff':
      return command({ ...withFolders, options: { out: { type: 'string' } } }, rest, io, (v, folders) => diff(v, folders, io));
    case 'matrix':
      return command({ ...withFolders, options: { out: { type: 'string' } } }, rest, io, (v, folders) => matrix(v, folders, io));
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out.write(REPORT_USAGE);
      return sub === undefined ? 2 : 0;
    default:
      io.err.write(`apc report: unknown subcommand "${sub}".\n\n${REPORT_USAGE}`);
      return 2;
  }
}
