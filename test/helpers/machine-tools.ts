/**
 * Programs of the machine that some tests drive, and what those tests print when skipped for
 * want of them. docs/testing.md, "Running the tests", quotes each reason (test/readme-quick-start.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Chromium, driven by playwright-core (which never downloads a browser). */
export const CHROMIUM = '/usr/bin/chromium';
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
export const CHROMIUM_SKIP_REASON = `${CHROMIUM} is not installed (apt-get install chromium)`;
/** The `skip` option of a test that needs Chromium. */
export const NO_CHROMIUM: string | false = existsSync(CHROMIUM) ? false : CHROMIUM_SKIP_REASON;

export const CURL_SKIP_REASON = 'needs curl: it is not installed (apt-get install curl)';
/** The `skip` option of a test that runs curl, as the README's readers do. */
export const NO_CURL: string | false = spawnSync('curl', ['--version']).status === 0 ? false : CURL_SKIP_REASON;

export const OPENSSL_SKIP_REASON = 'needs openssl to make a TLS certificate: it is not installed (apt-get install openssl)';
/** The `skip` option of a test that runs PostgreSQL behind a TLS proxy (its certificate made by openssl). */
export const NO_OPENSSL: string | false = spawnSync('openssl', ['version']).status === 0 ? false : OPENSSL_SKIP_REASON;

/** What the full-disk test of the log writer prints where it may not mount a small tmpfs (not root). */
export const TMPFS_SKIP_REASON = 'needs root to mount a small tmpfs (a real full disk)';
