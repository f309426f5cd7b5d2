// Headless Chromium for the report page tests: Debian's `chromium` package. When it is missing
// and the tests run as root (CI), it is installed with apt-get; otherwise the test fails saying
// which package to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)).find((file) => existsSync(file));
}

function install(): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const run = spawnSync('apt-get', args, { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${run.status}): ${run.stderr.trim().split('\n').at(-1)}`);
  }
}

export function chromiumPath(): string {
  const found = onPath('chromium');
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error("These tests need headless Chromium: install Debian's `chromium` package (sudo apt-get install chromium), then run them again.");
  }
  install();
  const installed = onPath('chromium');
  if (!installed) throw new Error("Debian's `chromium` package was installed but no `chromium` command is on PATH.");
  return installed;
}

/** Chromium without network, GPU or background services: the page must stand on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
