/**
 * CHANGELOG.md is a list of released versions under one "Unreleased" section for the work in
 * progress, and the newest release is the version the packages carry: releasing means naming the
 * section and bumping package.json (and the client's, which follows it) together.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const CHANGELOG = read('CHANGELOG.md');
const SECTIONS = [...CHANGELOG.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);
const RELEASE = /^(\d+)\.(\d+)\.(\d+) - (\d{4}-\d{2}-\d{2})$/;

it('CHANGELOG.md > its sections > are "Unreleased" first, then releases "x.y.z - date", newest first', () => {
  assert.equal(SECTIONS[0], 'Unreleased');
  const releases = SECTIONS.slice(1);
  assert.ok(releases.length >= 2, 'released versions, not one section');
  for (const section of releases) assert.match(section, RELEASE);
  const order = releases.map((section) => RELEASE.exec(section)!.slice(1, 4).map(Number));
  for (let n = 1; n < order.length; n++) {
    const [newer, older] = [order[n - 1]!, order[n]!];
    const diff = newer.findIndex((part, i) => part !== older[i]);
    assert.ok(diff >= 0 && newer[diff]! > older[diff]!, `${releases[n - 1]} comes after ${releases[n]}`);
    assert.ok(RELEASE.exec(releases[n - 1]!)![4]! >= RELEASE.exec(releases[n]!)![4]!, `${releases[n - 1]} is not dated before ${releases[n]}`);
  }
});

it('CHANGELOG.md > the newest release > is the version of package.json and of the client package', () => {
  const newest = RELEASE.exec(SECTIONS[1]!)!;
  const version = newest.slice(1, 4).join('.');
  assert.equal((JSON.parse(read('package.json')) as { version: string }).version, version);
  assert.equal((JSON.parse(read('client/package.json')) as { version: string }).version, version);
});

it('CHANGELOG.md > a major release > says what breaks', () => {
  const releases = CHANGELOG.split(/^## /m).filter((text) => RELEASE.test(text.split('\n')[0]!));
  for (const release of releases) {
    const [, major, minor, patch] = RELEASE.exec(release.split('\n')[0]!)!;
    if (major !== '1' && minor === '0' && patch === '0') assert.match(release, /\*\*Breaking:\*\*/, release.split('\n')[0]);
  }
});

it('CHANGELOG.md > every sub-heading > tells at least one change (no heading left empty by a merge)', () => {
  const parts = CHANGELOG.split(/^(?=#{2,3} )/m).filter((part) => part.startsWith('### '));
  for (const part of parts) assert.match(part, /^- /m, `"${part.split('\n')[0]}" lists no change`);
});
