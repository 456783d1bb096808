/**
 * The links between the published documents: text moves between README.md and docs/*.md, and a
 * link left pointing at the old place (a file gone, a heading renamed) fails here, not in a
 * reader's browser. Anchors are GitHub's: the heading in lower case, punctuation dropped, spaces
 * as hyphens.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import { headings, publishedDocFiles } from './helpers/published-docs.js';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
const FILES = [...publishedDocFiles(), 'CHANGELOG.md', 'client/README.md', 'bench/README.md'];

/** GitHub's anchor for a heading (github-slugger), without the -1, -2 of repeated headings. */
function anchorOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  return new Set(headings(readFileSync(join(REPO_ROOT, file), 'utf8')).map((heading) => anchorOf(heading.title)));
}

/** Markdown links `[text](target)` outside fenced code blocks, with their targets. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

it('the published documents > every relative link > names a file that exists, and a heading it has', () => {
  const broken: string[] = [];
  for (const file of FILES) {
    for (const target of linksOf(readFileSync(join(REPO_ROOT, file), 'utf8'))) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(REPO_ROOT, resolved))) broken.push(`${file}: ${target} (no ${resolved})`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor})`);
    }
  }
  assert.deepEqual(broken, []);
});

it("anchorOf > headings with punctuation > are GitHub's anchors", () => {
  assert.equal(anchorOf("The store's orders (beta)"), 'the-stores-orders-beta');
  assert.equal(anchorOf('Several instances, PostgreSQL'), 'several-instances-postgresql');
  assert.equal(anchorOf('Health, logs and shutdown'), 'health-logs-and-shutdown');
});
