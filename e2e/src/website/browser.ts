import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot } from '@transmute/devstack';

/** Debian's chromium (libs/devstack/bin/packages/apt.txt installs it). */
export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of every page, desktop and phone (git-ignored). */
export const ARTEFACTS = join(repoRoot(), 'e2e', 'artefacts', 'website');

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run libs/devstack/bin/install-tools.sh as root (it installs Debian's chromium)`);
  }
  await mkdir(ARTEFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking'] });
}

/** axe's serious and critical findings on the page as it is now (WCAG 2.1 A/AA rules and best practices). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * Saves the page at desktop and phone width as <name>-desktop.png and
 * <name>-phone.png, and throws when the page is wider than the phone's
 * screen (content that makes the whole page scroll sideways).
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(ARTEFACTS, `${name}-${label}.png`), fullPage: true });
    const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
    if (width > size.width) throw new Error(`${name} is ${width} px wide at ${label} width ${size.width} px: something overflows`);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}
