// The product image (Dockerfile): it runs as a non-root user, its HEALTHCHECK turns healthy
// once `apc serve` listens, and `docker run IMAGE certify` certifies a target outside the
// container and writes its report to a mounted folder. Needs Docker (see test/support/docker.ts);
// the image is built once per state of the sources and reused (harness/reference/reference-image.ts).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { productImage, type ProductImage } from '../../harness/reference/reference-image.ts';
import { startReferenceTarget, type ReferenceTarget } from '../../harness/reference/reference-target.ts';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import { docker, dockerProblem } from '../support/docker.ts';
import { referenceProfileFile } from '../../harness/reference/reference-target.ts';

const problem = await dockerProblem();

if (problem !== undefined && process.env.CI === 'true') {
  test('Docker is available (CI runs the image tests)', () => {
    throw new Error(`CI=true, but Docker does not answer: ${problem}. .ci/run installs docker.io and starts dockerd; see its output.`);
  });
}

describe.skipIf(problem !== undefined)(`the product image${problem ? ` (skipped: ${problem})` : ''}`, () => {
  let image: ProductImage;

  beforeAll(async () => {
    image = await productImage(process.env, () => undefined);
  }, 1_200_000);

  test('runs as a non-root user, and its health check turns healthy', async () => {
    // --health-interval only shortens the wait: the check itself is the image's HEALTHCHECK.
    const id = await docker(['run', '-d', '--health-interval', '1s', image.name, 'serve']);
    try {
      expect(await docker(['inspect', '--format', '{{.Config.User}}', image.name])).toBe('node');
      expect(await docker(['exec', id, 'node', '-e', 'process.stdout.write(String(process.getuid()))'])).not.toBe('0');
      let status = 'starting';
      // Each round waits for the next check; Docker's own retries end a failing start as "unhealthy".
      for (let round = 0; round < 120 && status === 'starting'; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        status = await docker(['inspect', '--format', '{{.State.Health.Status}}', id]);
      }
      expect(status, await docker(['logs', id]).catch(String)).toBe('healthy');
    } finally {
      await docker(['rm', '-f', id]);
    }
  });

  describe('docker run IMAGE certify, against the reference implementation in this process', () => {
    let reference: ReferenceTarget | undefined;
    let dir: string | undefined;

    afterAll(async () => {
      await reference?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('writes the report to the mounted folder', async () => {
      reference = await startReferenceTarget({ mode: 'hosted' });
      dir = mkdtempSync(join(tmpdir(), 'apc-image-'));
      const reports = join(dir, 'reports');
      mkdirSync(reports);
      // The image's user (uid 1000) writes into a folder of whoever runs the test.
      chmodSync(reports, 0o777);
      writeFileSync(join(dir, 'target.yaml'), stringify(referenceProfileFile(reference)));
      const [own, other] = reference.grants;
      // Host networking: the reference listens on this machine's loopback interface.
      const args = ['run', '--rm', '--network', 'host', '-v', `${reports}:/reports`, '-v', `${join(dir, 'target.yaml')}:/target.yaml:ro`];
      const output = await docker(
        [...args, '-e', 'APC_API_KEY', '-e', 'APC_OTHER_API_KEY', image.name, 'certify', '--profile', '/target.yaml', '--interfaces', 'experiment-upload', '--reports', '/reports'],
        { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
      );
      expect(output).toMatch(/verdict: CERTIFIED/);
      expect(output).toContain('report:  /reports');
      const report = JSON.parse(readFileSync(join(reports, 'compliance.json'), 'utf8')) as ComplianceReport;
      expect(complianceReportProblems(report)).toEqual([]);
      expect(report.verdict).toBe('certified');
      expect(report.target.urls['experiment-upload']).toBe(reference.urls['experiment-upload']);
      for (const file of ['compliance.md', 'compliance.html', 'junit.xml', 'badge.svg']) expect(existsSync(join(reports, file)), file).toBe(true);
      expect(readFileSync(join(reports, 'compliance.json'), 'utf8') + output).not.toContain(own!.key);
    });
  });
});
