import UAParser from 'ua-parser-js';

/** The parser's names for the same browser on a phone or without a window, as people say them. */
const BROWSER_NAMES: Record<string, string> = {
  'Mobile Safari': 'Safari',
  'Mobile Chrome': 'Chrome',
  'Mobile Firefox': 'Firefox',
  'Chrome Headless': 'Chrome',
  'Chrome WebView': 'Chrome',
};
const SYSTEM_NAMES: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'ChromeOS' };

/**
 * The browser and system a user agent names, as a session list shows them ("Chrome on macOS"); the
 * one it names when it names only one; null when it names neither (a script, a test client).
 */
export function describeDevice(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = new UAParser(userAgent).getResult();
  const browserName = browser.name ? (BROWSER_NAMES[browser.name] ?? browser.name) : null;
  const systemName = os.name ? (SYSTEM_NAMES[os.name] ?? os.name) : null;
  if (browserName && systemName) return `${browserName} on ${systemName}`;
  return browserName ?? systemName;
}
