// junit.xml of `apc contracts verify`: one <testsuite> per pact (consumer → provider), one
// <testcase> per interaction with the requirement ids it relies on as a property; a failed
// interaction is a <failure> listing Pact's mismatches and the SSE checker's findings.
import { escapeXml, escapeXmlAttribute as attr } from '../report/escape.ts';
import type { InteractionResult } from './verify.ts';

export function contractsJunit(results: InteractionResult[]): string {
  const suites = new Map<string, InteractionResult[]>();
  for (const r of results) {
    const key = `${r.consumer} → ${r.provider}`;
    suites.set(key, [...(suites.get(key) ?? []), r]);
  }
  const failures = results.filter((r) => !r.passed).length;
  const body = [...suites].map(([name, list]) => {
    const cases = list.map((r) => {
      const head = `    <testcase name="${attr(r.description)}" classname="${attr(`${r.consumer}.${r.provider}`)}">\n      <properties>\n        <property name="requirements" value="${attr(r.requirements.join(' '))}"/>\n      </properties>`;
      const failure = r.passed
        ? ''
        : `\n      <failure message="${attr(r.problems[0] ?? 'failed')}" type="contract">${escapeXml(r.problems.join('\n'))}</failure>`;
      return `${head}${failure}\n    </testcase>`;
    });
    return `  <testsuite name="${attr(name)}" tests="${list.length}" failures="${list.filter((r) => !r.passed).length}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="apc contracts verify" tests="${results.length}" failures="${failures}">\n${body.join('\n')}\n</testsuites>\n`;
}
