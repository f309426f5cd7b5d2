// The banner of compliance.html is legible for every verdict of the vocabulary: in headless
// Chromium, each text of the header (verdict, reason, counts, the run's facts) has a WCAG contrast
// of at least 4.5 against the background it is drawn on. A passed or incomplete report once had
// white text on a white page. One screenshot per verdict goes to a temporary folder.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderHtml } from '../../harness/report/html.ts';
import { VERDICTS } from '../../schemas/vocabulary.ts';
import { scratchDir } from '../support/scratch.ts';
import { launchChromium } from './support/chromium.ts';
import { sampleReport } from './support/sample-report.ts';

type Rgba = [number, number, number, number];

// The little of the DOM used inside page.evaluate (the project's type library has no DOM).
interface El {
  tagName: string;
  className: string;
  textContent: string | null;
  parentElement: El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}
declare const document: { querySelector(selector: string): El | null; body: El };
declare function getComputedStyle(element: El): { color: string; backgroundColor: string; opacity: string };

function parseColor(css: string): Rgba {
  const parts = css.match(/[\d.]+/g)?.map(Number) ?? [];
  if (!css.startsWith('rgb') || parts.length < 3) throw new Error(`unexpected computed color ${css}`);
  return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
}

/** The colour seen when `top`, at its alpha times `opacity`, is drawn over the opaque `under`. */
function over(top: Rgba, under: Rgba, opacity: number): Rgba {
  const a = top[3] * opacity;
  return [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

interface Painted {
  what: string;
  text: string;
  color: string;
  opacity: number;
}

describe('the HTML banner in headless Chromium', () => {
  let browser: Browser;
  const dir = scratchDir('banner');
  beforeAll(async () => {
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
  });

  test('the contrast measure agrees with WCAG on known pairs', () => {
    expect(contrast([255, 255, 255, 1], [0, 0, 0, 1])).toBeCloseTo(21, 5);
    expect(contrast([255, 255, 255, 1], [255, 255, 255, 1])).toBe(1);
    expect(contrast([255, 255, 255, 1], [118, 118, 118, 1])).toBeCloseTo(4.54, 2);
  });

  test.each([...VERDICTS])('%s: every text of the banner has a contrast of at least 4.5', async (verdict) => {
    const report = { ...sampleReport(), verdict, verdictReason: `The reason a run is ${verdict}.` };
    const file = join(dir, `${verdict}.html`);
    writeFileSync(file, renderHtml(report));
    const page = await browser.newPage({ viewport: { width: 1100, height: 420 } });
    await page.goto(`file://${file}`);
    const { background, texts } = await page.evaluate(() => {
      const header = document.querySelector('header')!;
      // What the header is drawn on: its own background, or the page's where it has none.
      const backgrounds = [header, document.body].map((e) => getComputedStyle(e).backgroundColor);
      const painted = Array.from(header.querySelectorAll('h1, h1 .hint, p, dt, dd')).map((e) => {
        let opacity = 1;
        for (let n: El | null = e; n && n !== document.body; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
        return {
          what: e.tagName.toLowerCase() + (e.className ? `.${e.className}` : ''),
          text: (e.textContent ?? '').slice(0, 40),
          color: getComputedStyle(e).color,
          opacity,
        };
      });
      return { background: backgrounds, texts: painted };
    });
    const page_ = parseColor(background[1]!);
    const ground = over(parseColor(background[0]!), page_, 1);
    expect(texts.length).toBeGreaterThan(8);
    expect(texts.some((t: Painted) => t.text.includes(`The reason a run is ${verdict}.`))).toBe(true);
    const weak = texts
      .map((t: Painted) => ({ ...t, ratio: contrast(over(parseColor(t.color), ground, t.opacity), ground) }))
      .filter((t) => t.ratio < 4.5)
      .map((t) => `${t.what} "${t.text}" ${t.color} on ${background[0]} (opacity ${t.opacity}): ${t.ratio.toFixed(2)}`);
    expect(weak).toEqual([]);
    const shot = join(dir, `${verdict}.png`);
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(5_000);
    await page.close();
  });
});
