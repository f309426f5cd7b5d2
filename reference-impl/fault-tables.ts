// faults.md's two tables, rendered from an interface's fault-switch records: what each switch
// changes, and the requirements each one fails. scripts/fault-tables.ts writes them into the
// files; test/reference-impl/fault-tables.test.ts fails when a file and its records disagree.
import type { FaultSwitch } from './fault-switch.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function deviationTable(switches: readonly FaultSwitch[]): string {
  const rows = switches.map((s) => `| \`${s.id}\` | ${cell(s.what)} | ${cell(s.breaks)} |`);
  return ['| Switch | Deviation | Rule it breaks |', '|---|---|---|', ...rows].join('\n');
}

export function failsTable(switches: readonly FaultSwitch[]): string {
  const rows = switches.flatMap((s) => (s.fails ? [`| \`${s.id}\` | ${s.fails.mode} | ${s.fails.requirements.join(' ')} |`] : []));
  return ['| Switch | Mode | Fails |', '|---|---|---|', ...rows].join('\n');
}

/** A faults.md with both tables replaced by those of the records (each table runs to the next blank line). */
export function withTables(markdown: string, switches: readonly FaultSwitch[]): string {
  const table = (header: string) => new RegExp(`^\\| Switch \\| ${header} \\|.*\\n(?:\\|.*\\n?)*`, 'm');
  return markdown.replace(table('Deviation'), `${deviationTable(switches)}\n`).replace(table('Mode'), `${failsTable(switches)}\n`);
}
