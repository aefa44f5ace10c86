/**
 * `pnpm bench:website`: the website's size and time-to-interactive.
 *
 *   node e2e/dist/bench/website.js [--runs N (10)]
 *
 * Starts its own platform, then loads each page N times in Debian's chromium,
 * each time in a fresh context (empty cache), first on plain loopback, then
 * throttled like a mid-range phone on a slow network (CPU 4x slower, 150 ms
 * round trip, 1.6 Mbit/s down, 750 kbit/s up, through the Chrome DevTools
 * Protocol). Time-to-interactive per load: the latest of DOMContentLoaded, the
 * page's heading rendered (after its session request) and the end of the
 * last long task (> 50 ms) seen by then. Prints the median and the worst,
 * and the transferred bytes of the first load.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '@transmute/devstack';
import type { Browser } from 'playwright-core';
import { startLocalPlatform } from '../support/platform';
import { launchChromium } from '../website/browser';

const PAGES = ['/', '/signin', '/signup'];

interface Throttle {
  name: string;
  cpu: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}

const THROTTLES: Throttle[] = [
  { name: 'loopback', cpu: 1 },
  { name: 'slow phone (CPU 4x, 150 ms RTT, 1.6 Mbit/s)', cpu: 4, network: { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 } },
];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function timeToInteractive(browser: Browser, url: string, throttle: Throttle): Promise<{ tti: number; bytes: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpu });
  if (throttle.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...throttle.network });
  let bytes = 0;
  page.on('response', (response) => {
    void response.body().then(
      (body) => (bytes += body.length),
      () => undefined,
    );
  });
  // The init script is a string and page-side globals are `any`: the e2e project compiles without the DOM library.
  await page.addInitScript({
    content: `window.lastLongTaskEnd = 0;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.lastLongTaskEnd = Math.max(window.lastLongTaskEnd, e.startTime + e.duration); })
        .observe({ type: 'longtask', buffered: true });`,
  });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  const rendered = Number(
    await (
      await page.waitForFunction(() => ((globalThis as any).document.querySelector('main h1') ? performance.now() : 0), undefined, { polling: 'raf', timeout: 60_000 })
    ).jsonValue(),
  );
  await page.waitForLoadState('load');
  const tti = Number(
    await page.evaluate(
      (headingAt) => Math.max((performance as any).getEntriesByType('navigation')[0].domContentLoadedEventEnd, headingAt, (globalThis as any).lastLongTaskEnd),
      rendered,
    ),
  );
  await context.close();
  return { tti, bytes };
}

function bundleSizes(): string[] {
  const assets = join(repoRoot(), 'services', 'website', 'dist', 'assets');
  return readdirSync(assets).map((file) => {
    const path = join(assets, file);
    return `${file}: ${(statSync(path).size / 1000).toFixed(1)} kB (${(gzipSync(readFileSync(path)).length / 1000).toFixed(1)} kB gzip)`;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs expects a positive integer');
  console.log(`bundle:\n  ${bundleSizes().join('\n  ')}`);
  const local = await startLocalPlatform({ name: 'bench-website' });
  const browser = await launchChromium();
  try {
    for (const throttle of THROTTLES) {
      console.log(`\n${throttle.name}, ${runs} cold loads per page:`);
      for (const path of PAGES) {
        const results = [];
        for (let run = 0; run < runs; run += 1) results.push(await timeToInteractive(browser, `${local.platform.baseUrl}${path}`, throttle));
        const times = results.map((result) => result.tti);
        console.log(
          `  ${path.padEnd(8)} TTI median ${median(times).toFixed(0)} ms, worst ${Math.max(...times).toFixed(0)} ms, ${(results[0]!.bytes / 1000).toFixed(1)} kB transferred`,
        );
      }
    }
  } finally {
    await browser.close();
    await local.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
