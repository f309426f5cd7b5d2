// The statements of docs/spec/interfaces.md, each with an anchor: every table row, every numbered
// rule, every bullet and every paragraph of sections 1-9 (the lines before section 1 only say how
// the document is written). An anchor is `<section>/<slug>`: the section number (1.A for the
// lettered parts of section 1) and a slug of the row's first cell or the sentence's first words,
// so an anchor survives edits elsewhere, and a changed statement gets a new anchor the
// traceability test (test/catalogue/traceability.test.ts) asks to map.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.ts';

export const SPEC_FILE = join(ROOT, 'docs', 'spec', 'interfaces.md');

export interface SpecStatement {
  anchor: string;
  section: string;
  kind: 'row' | 'rule' | 'bullet' | 'paragraph';
  /** The statement as written (a row's cells joined with " | "). */
  text: string;
}

const slug = (text: string, words: number): string =>
  text
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_./{} -]+/g, ' ')
    .replace(/[{}]/g, '')
    .split(/[\s/.]+/)
    .filter(Boolean)
    .slice(0, words)
    .join('-');

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

export function specStatements(text: string = readFileSync(SPEC_FILE, 'utf8')): SpecStatement[] {
  const out: SpecStatement[] = [];
  const taken = new Set<string>();
  let section: string | undefined;
  let previous = '';
  const add = (kind: SpecStatement['kind'], stem: string, statement: string) => {
    let anchor = `${section}/${stem || kind}`;
    for (let n = 2; taken.has(anchor); n++) anchor = `${section}/${stem || kind}-${n}`;
    taken.add(anchor);
    out.push({ anchor, section: section!, kind, text: statement });
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = line.startsWith('|') && !previous.startsWith('|');
    previous = line;
    const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line);
    if (heading) {
      section = heading[1]!;
      continue;
    }
    if (section === undefined || line === '' || line.startsWith('#')) continue;
    const part = /^\*\*([A-C])\. [^*]+\*\*\s*(.*)$/.exec(line);
    if (part && section.startsWith('1')) {
      section = `1.${part[1]}`;
      if (part[2]) add('paragraph', slug(part[2], 5), part[2]);
      continue;
    }
    if (line.startsWith('|')) {
      const row = cells(line);
      if (row.every((c) => /^:?-+:?$/.test(c))) continue;
      // The first line of a table names its columns.
      if (header) continue;
      // An endpoint row is named by its method and path, and a row whose first cell repeats by its first two.
      const first = slug(row[0]!, 4);
      const method = /^(GET|POST|PATCH|PUT|DELETE)$/.test(row[0]!);
      add('row', method || taken.has(`${section}/${first}`) ? slug(`${row[0]} ${row[1]}`, 8) : first, row.join(' | '));
      continue;
    }
    const rule = /^(\d+)\. (.*)$/.exec(line);
    if (rule) {
      add('rule', `rule-${rule[1]}`, rule[2]!);
      continue;
    }
    if (line.startsWith('- ')) {
      add('bullet', slug(line.slice(2), 5), line.slice(2));
      continue;
    }
    // A bold line alone, or a few words ending in a colon, titles the table or list after it.
    if (/^\*\*[^*]+\*\*$/.test(line) || /^[\w ]{1,40}:$/.test(line)) continue;
    add('paragraph', slug(line, 5), line);
  }
  return out;
}
