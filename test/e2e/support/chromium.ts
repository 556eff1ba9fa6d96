// Debian's Chromium, driven over CDP by playwright-core (no browser download; DESIGN §8).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p)) ?? null;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh browser profile each time, so IndexedDB and storage start empty. */
export async function launchBrowser(options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {}): Promise<BrowserContext> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium not found');
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'skillwright-chromium-')), {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
}
