// One real certification (a small slice, against the reference implementation with a known key,
// a known tenant listed as a value to redact, and a deliberate fault so there are failures),
// shared by the tests of every report format, the page in headless Chromium, redaction,
// replay and the expected-failures baseline. That one runs as a user's would, a child process whose
// terminal output the redaction test reads; the replays and baseline runs go inside this process.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { startReference, type ReferenceServer } from '../../reference-impl/index.ts';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import { certifyHere, keptSuiteWorkers, ROOT } from '../support/certify.ts';
import { apcHere } from '../support/apc-here.ts';
import { apc, type ApcRun } from './support/apc.ts';
import { launchChromium } from './support/chromium.ts';
import { recordingProxy, sentSecrets, type RecordingProxy } from './support/recording-proxy.ts';

const KEY = `KNOWN-KEY-${randomBytes(12).toString('hex')}`;
const OTHER_KEY = `KNOWN-OTHER-KEY-${randomBytes(12).toString('hex')}`;
const TENANT = randomUUID();
const OTHER_TENANT = randomUUID();
const SEED = '4242';
// A fault that makes search ignore its metadata filter: AS-SRCH-001 fails, with exchanges.
const FAULT = 'as.search-ignores-metadata';
const SLICE = 'AS-SRCH-*,AS-THR-*,CP-CREATE-006';

const work = mkdtempSync(join(tmpdir(), 'apc-report-test-'));
const reportDir = join(work, 'report');
const profileFile = join(work, 'profile.yaml');
// The profile comes through APC_PROFILE, so replay lines (and docs/report.png) name no temporary path.
const env = { APC_API_KEY: KEY, APC_OTHER_API_KEY: OTHER_KEY, APC_PROFILE: profileFile };
let server: ReferenceServer;
let proxies: RecordingProxy[];
let targetArgs: string[];
let run: ApcRun;
let report: ComplianceReport;
let allureRender: ApcRun;

// The browser's XML parser, used inside page.evaluate (the project's type library has no DOM).
declare const DOMParser: new () => {
  parseFromString(text: string, type: string): { querySelector(selector: string): { textContent: string | null } | null; querySelectorAll(selector: string): { length: number } };
};

const read = (file: string) => readFileSync(join(reportDir, file), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  server = await startReference({
    apiKeys: [
      { key: KEY, tenants: [TENANT] },
      { key: OTHER_KEY, tenants: [OTHER_TENANT] },
    ],
    phaseMs: 10,
    statsDelayMs: 300,
    faults: [FAULT],
  });
  proxies = await Promise.all([server.urls.controlPlane, server.urls.agentServer].map(recordingProxy));
  writeFileSync(
    profileFile,
    [
      'controlPlaneMode: hosted',
      'endpoints: [experiment-reads, dataset-create]',
      'fixtures: {failingGraphId: fail, failingImageUri: "registry.invalid/acme/agent:fail-build"}',
      'timeouts: {requestMs: 10000, streamMs: 10000, deployMs: 30000, statsMs: 15000}',
      'pollIntervalMs: 20',
      `redact: ["${TENANT}"]`,
      // The reference behind the proxies is free: unbudgeted, as when the harness starts it (a
      // budget would collect the suites' tests once more before each run and start a pool).
      'budget: {}',
      '',
    ].join('\n'),
  );
  targetArgs = ['--control-plane-url', proxies[0]!.url, '--agent-server-url', proxies[1]!.url, '--tenant-id', TENANT, '--other-tenant-id', OTHER_TENANT];
  run = await apc(['certify', ...targetArgs, '--interfaces', 'control-plane,agent-server', '--requirements', SLICE, '--runs', '5', '--seed', SEED, '--reports', reportDir], env);
  report = JSON.parse(read('compliance.json')) as ComplianceReport;
  allureRender = await apc(['report', 'allure', reportDir]);
}, 300_000);

afterAll(async () => {
  await Promise.all((proxies ?? []).map((p) => p.close()));
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a certification writes a report folder that stands on its own', () => {
  test('every format is there, and compliance.json matches its schema', () => {
    expect(run.code, run.stderr).toBe(1);
    for (const file of ['compliance.json', 'compliance.md', 'compliance.html', 'junit.xml', 'badge.svg']) expect(existsSync(join(reportDir, file)), file).toBe(true);
    expect(complianceReportProblems(report)).toEqual([]);
    expect(report).toMatchObject({ verdict: 'not-certified', seed: Number(SEED), target: { reference: false } });
    expect(report.requirements.find((r) => r.id === 'AS-SRCH-001')).toMatchObject({ status: 'failed', level: 'MUST', interface: 'agent-server' });
    expect(report.requirements.find((r) => r.id === 'AS-THR-001')?.status).toBe('passed');
    const total = Object.values(report.counts.total).reduce((a, b) => a + b, 0);
    expect(total).toBe(report.requirements.length);
  });

  test('the terminal shows progress per family, then the verdict, scores, failed ids and the report path', () => {
    expect(run.stdout).toMatch(/✗ agent-server\/assistants-search +\d+ passed, \d+ failed|✗ agent-server\/assistants-search +\d+ failed/);
    expect(run.stdout).toMatch(/verdict: NOT CERTIFIED {2}MUST \d+\/\d+/);
    expect(run.stdout).toMatch(/failed: {2}.*AS-SRCH-001 \(MUST\)/);
    expect(run.stdout).toContain(`report:  ${reportDir}`);
  });

  test('compliance.md leads with the verdict and shows each failure with its curl line', () => {
    const md = read('compliance.md');
    expect(md.startsWith('# Compliance report: NOT CERTIFIED\n')).toBe(true);
    const section = md.slice(md.indexOf('### ✗ AS-SRCH-001'));
    expect(section).toContain(`curl -sS -X POST '${proxies[1]!.url}/assistants/search'`);
    expect(section).toContain('"$APC_API_KEY"');
    expect(section).toContain(`--seed ${SEED} --requirements AS-SRCH-001`);
    for (const r of report.requirements) expect(md).toContain(`| ${r.id} | ${r.level} | ${r.interface} |`);
  });

  test('junit.xml has one testcase per requirement and a <failure> for each failed one', () => {
    const xml = read('junit.xml');
    expect(xml.match(/<testcase /g)).toHaveLength(report.requirements.length);
    const failed = report.requirements.filter((r) => r.status === 'failed');
    expect(xml.match(/<failure /g)).toHaveLength(failed.length);
    expect(xml).toMatch(/<testcase name="AS-SRCH-001 [^"]*" classname="agent-server.MUST">[\s\S]*?<failure /);
  });

  test('badge.svg states the verdict and the MUST score', () => {
    expect(read('badge.svg')).toContain(`<title>apc: not certified · MUST ${report.mustScore.passed}/${report.mustScore.applicable}</title>`);
  });

  test('Allure results carry the requirement labels and render to HTML without Java', () => {
    const results = filesUnder(join(reportDir, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { name: string; status: string; labels: { name: string; value: string }[]; description?: string; statusDetails?: { message?: string } });
    // One result per requirement, as in every other format.
    expect(results).toHaveLength(report.requirements.length);
    const search = results.find((r) => r.name.startsWith('AS-SRCH-001 ') && r.status === 'failed');
    expect(search).toBeDefined();
    const label = (name: string) => search!.labels.filter((l) => l.name === name).map((l) => l.value);
    expect(label('epic')).toEqual(['agent-server']);
    expect(label('feature')).toEqual(['AS-SRCH']);
    expect(label('story')).toEqual(['AS-SRCH-001']);
    expect(label('severity')).toEqual(['critical']);
    expect(search!.description).toContain('curl -sS -X POST');
    expect(allureRender.code, allureRender.stderr).toBe(0);
    expect(existsSync(join(reportDir, 'allure-report', 'index.html'))).toBe(true);
    // Opened as a file the page is a blank spinner: the command says how to serve it.
    expect(allureRender.stdout).toContain('serve it to view it: npx allure open');
  });
});

describe('redaction', () => {
  test('no key, listed value or sent secret appears in any file of the report folder or in the terminal', () => {
    const sent = proxies.flatMap((p) => p.requests);
    // The values were really on the wire, so finding none of them below means something.
    expect(sent.some((r) => r.headers['x-api-key'] === KEY)).toBe(true);
    expect(report.target.profile).toMatchObject({ apiKey: '[redacted]', otherTenant: { apiKey: '[redacted]' }, tenantId: '[redacted]' });
    // Values shorter than 4 characters are not redacted as literals (harness/redact.ts).
    const suiteSecrets = sentSecrets(sent).filter((s) => s.length >= 4);
    // CP-CREATE-006 creates deployments with secrets and checks they are listed.
    expect(suiteSecrets.length).toBeGreaterThan(0);
    const secrets = [KEY, OTHER_KEY, TENANT, ...suiteSecrets];
    const places = [...filesUnder(reportDir).map((file) => ({ name: file, text: readFileSync(file, 'latin1') })), { name: 'terminal', text: run.stdout + run.stderr }];
    expect(places.length).toBeGreaterThan(10);
    const leaks = places.flatMap(({ name, text }) => secrets.filter((s) => text.includes(s)).map((s) => `${s} in ${name}`));
    expect(leaks).toEqual([]);
    expect(read('compliance.json')).toContain('[redacted]');
  });
});

describe('compliance.html in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
  });

  test('renders the matrix, filters it, expands a failure, and loads nothing', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1500 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const file = `file://${join(reportDir, 'compliance.html')}`;
    await page.goto(file);

    const rows = page.locator('#requirements tbody tr');
    await expect.poll(() => rows.count()).toBe(report.requirements.length);
    expect(await page.locator('#requirements tbody tr:visible').count()).toBe(report.requirements.length);
    expect(await page.locator('#req-AS-SRCH-001 td').first().textContent()).toBe('AS-SRCH-001');

    const failed = report.requirements.filter((r) => r.status === 'failed').length;
    await page.click('.filter[data-filter=status] button[data-value=failed]');
    expect(await page.locator('#requirements tbody tr:visible').count()).toBe(failed);
    expect(await page.locator('#shown').textContent()).toBe(`Showing ${failed} of ${report.requirements.length} requirements.`);
    await page.click('.filter[data-filter=interface] button[data-value=control-plane]');
    expect(await page.locator('#requirements tbody tr:visible').count()).toBe(report.requirements.filter((r) => r.status === 'failed' && r.interface === 'control-plane').length);
    await page.click('.filter[data-filter=interface] button[data-value=""]');
    await page.fill('#search', 'as-srch-001');
    expect(await page.locator('#requirements tbody tr:visible').count()).toBe(1);
    await page.fill('#search', '');

    const failure = page.locator('#req-AS-SRCH-001 details.failure').first();
    expect(await failure.getAttribute('open')).toBeNull();
    await failure.locator(':scope > summary').click();
    expect(await failure.getAttribute('open')).toBe('');
    const curl = failure.locator('details.exchange[open] pre.curl');
    expect(await curl.textContent()).toContain(`curl -sS -X POST '${proxies[1]!.url}/assistants/search'`);
    expect(await curl.isVisible()).toBe(true);

    // The top of the page with the failed rows only and one failure open: docs/report.png.
    const shot = process.env.APC_UPDATE_DOCS ? join(ROOT, 'docs', 'report.png') : join(work, 'report.png');
    mkdirSync(join(shot, '..'), { recursive: true });
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(10_000);

    expect(requests).toEqual([file]);
    expect(problems).toEqual([]);
    await page.close();
  });

  test('junit.xml and badge.svg are well-formed XML', async () => {
    const page = await browser.newPage();
    for (const file of ['junit.xml', 'badge.svg']) {
      const error = await page.evaluate((xml) => new DOMParser().parseFromString(xml, 'application/xml').querySelector('parsererror')?.textContent ?? null, read(file));
      expect(error, file).toBeNull();
    }
    const cases = await page.evaluate((xml) => new DOMParser().parseFromString(xml, 'application/xml').querySelectorAll('testsuite > testcase').length, read('junit.xml'));
    expect(cases).toBe(report.requirements.length);
    await page.close();
  });
});

describe('replay', () => {
  test('re-runs exactly the failed requirements with the recorded seed and target', async () => {
    const out = join(work, 'replay');
    const replay = await apcHere(['certify', '--replay', reportDir, '--reports', out, '--quiet'], env);
    const again = JSON.parse(readFileSync(join(out, 'compliance.json'), 'utf8')) as ComplianceReport;
    const failed = report.requirements.filter((r) => r.status === 'failed');
    expect(replay.code, replay.stderr).toBe(1);
    expect(again.requirements.map((r) => r.id)).toEqual(failed.map((r) => r.id));
    expect(again).toMatchObject({ replayOf: report.runId, seed: report.seed, target: { urls: report.target.urls } });
    expect(again.requirements.find((r) => r.id === 'AS-SRCH-001')?.status).toBe('failed');
  });

  test('a folder without compliance.json is refused with exit code 2', async () => {
    const empty = mkdtempSync(join(work, 'empty-'));
    const replay = await apcHere(['certify', '--replay', empty]);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain(`${empty}: expected a report folder written by \`apc certify\`, but it has no compliance.json.`);
  });
});

describe('expected-failures baseline', () => {
  const baseline = (ids: string[]) => {
    const file = join(mkdtempSync(join(work, 'baseline-')), 'expected.yaml');
    writeFileSync(file, `expected-failures:\n${ids.map((id) => `  - id: ${id}\n    reason: search filter bug, tracked\n`).join('')}`);
    return file;
  };
  // On one suite worker, kept from the first run to the second (`certifyHere`): the two rules' files need no second one.
  const suites = keptSuiteWorkers();
  const certifyWith = (file: string) =>
    certifyHere({ args: [...targetArgs, '--interfaces', 'agent-server', '--requirements', 'AS-SRCH-001,AS-THR-001', '--seed', SEED, '--runs', '5', '--expected-failures', file], env }, suites).then((r) => ({ ...r, report: r.report! }));

  test('a listed failure is an expected failure and does not fail the run', async () => {
    const r = await certifyWith(baseline(['AS-SRCH-001']));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.report.verdict).toBe('no-regressions');
    expect(r.report.requirements.find((x) => x.id === 'AS-SRCH-001')).toMatchObject({ status: 'expected-failure', reason: 'search filter bug, tracked' });
    expect(r.stdout).toContain('expected failures: AS-SRCH-001');
  });

  test('a listed requirement that passes is stale and fails the run', async () => {
    const r = await certifyWith(baseline(['AS-SRCH-001', 'AS-THR-001']));
    expect(r.code).toBe(2);
    expect(r.report.verdict).toBe('error');
    expect(r.report.errors).toEqual([expect.stringContaining('AS-THR-001 is listed in the expected-failures file but passed')]);
  });

  test('an unknown id is an error naming the line', async () => {
    const file = baseline(['AS-SRCH-001', 'AS-NOPE-001']);
    const r = await apcHere(['certify', '--expected-failures', file, '--requirements', 'AS-THR-001']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:4: unknown requirement id AS-NOPE-001`);
  });
});
