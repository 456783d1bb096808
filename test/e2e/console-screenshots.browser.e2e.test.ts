/**
 * The README's pictures of the console (scripts/console-screenshots.ts, `npm run screenshots`):
 * the script, run into a temporary folder against a real service and Chromium, makes exactly the
 * images the README shows, each a whole PNG of the script's viewport; and the committed images are
 * those same files, so a README image cannot name a view the script no longer makes. Without
 * /usr/bin/chromium the run is reported as skipped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { after, it } from 'node:test';
import { DEFAULT_SCREENSHOTS_DIR, makeConsoleScreenshots, SCREENSHOT_VIEWPORT, SCREENSHOTS } from '../../scripts/console-screenshots.js';
import { NO_CHROMIUM } from '../helpers/machine-tools.js';
import { REPO_ROOT, stopAllServices } from '../helpers/spawn-service.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The images under docs/screenshots/ that README.md shows, in its order. */
function readmeImages(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/!\[[^\]]*\]\(docs\/screenshots\/([^)\s]+)\)/g)].map((match) => match[1]!);
}

/**
 * A PNG's width and height, after checking that it is one: the signature, every chunk's CRC,
 * IHDR first and IEND last with nothing after it. Throws on anything else.
 */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${file}: no PNG signature`);
  const types: string[] = [];
  let offset = 8;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const typeAndData = bytes.subarray(offset + 4, offset + 8 + length);
    assert.equal(typeAndData.length, 4 + length, `${file}: a chunk runs past the end`);
    assert.equal(bytes.readUInt32BE(offset + 8 + length), crc32(typeAndData), `${file}: a chunk's CRC is wrong`);
    types.push(typeAndData.subarray(0, 4).toString('latin1'));
    offset += 12 + length;
  }
  assert.equal(types[0], 'IHDR', `${file}: IHDR is not the first chunk`);
  assert.equal(types.at(-1), 'IEND', `${file}: IEND is not the last chunk`);
  assert.ok(types.includes('IDAT'), `${file}: no image data`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const folder = mkdtempSync(join(tmpdir(), 'animal-store-screenshots-'));
after(async () => {
  rmSync(folder, { recursive: true, force: true });
  await stopAllServices();
});

it('the README > its console pictures > are the ones scripts/console-screenshots.ts makes, in its order', () => {
  assert.deepEqual(
    readmeImages(),
    SCREENSHOTS.map((screenshot) => screenshot.file),
  );
});

it("the committed pictures > docs/screenshots/ > holds exactly the README's images, each a PNG of the viewport", () => {
  assert.deepEqual(readdirSync(DEFAULT_SCREENSHOTS_DIR).sort(), [...readmeImages()].sort());
  for (const file of readmeImages()) assert.deepEqual(pngSize(join(DEFAULT_SCREENSHOTS_DIR, file)), SCREENSHOT_VIEWPORT, file);
});

it(
  "npm run screenshots > run into an empty folder against a real service > writes exactly the README's images, each a PNG of the viewport",
  { skip: NO_CHROMIUM, timeout: 300_000 },
  async () => {
    const written = await makeConsoleScreenshots(folder);
    assert.deepEqual(
      written.map((path) => basename(path)),
      readmeImages(),
      'the files it says it wrote',
    );
    assert.deepEqual(readdirSync(folder).sort(), [...readmeImages()].sort(), 'the files in the folder');
    for (const file of readmeImages()) assert.deepEqual(pngSize(join(folder, file)), SCREENSHOT_VIEWPORT, file);
  },
);
