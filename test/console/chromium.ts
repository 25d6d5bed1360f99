// Debian's Chromium for the browser tests (never a downloaded one), and the flags every launch
// takes: no sandbox (root in CI), and nothing that would reach the closed network (background
// networking, component updates, sync), whose refused connections slow a start.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
