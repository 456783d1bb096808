/**
 * The published documentation as the tests that check quoted facts read it: README.md (the front
 * door) and docs/*.md (the rest). Text moves between these files as they grow, so a test looks a
 * fact up in all of them, or names the section that holds it, wherever that section lives.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** README.md first, then docs/*.md in name order: paths relative to the repository's root. */
export function publishedDocFiles(): string[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort();
  return ['README.md', ...docs.map((file) => `docs/${file}`)];
}

export function readPublishedDoc(file: string): string {
  return readFileSync(join(REPO_ROOT, file), 'utf8');
}

/** Every published document, one after the other. */
export function allPublishedDocs(): string {
  return publishedDocFiles().map(readPublishedDoc).join('\n\n');
}

/** The lines of a Markdown text that are headings, outside fenced code blocks. */
export function headings(markdown: string): { level: number; title: string; index: number }[] {
  const found: { level: number; title: string; index: number }[] = [];
  let fenced = false;
  let index = 0;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6}) (.+)$/.exec(line);
    if (heading) found.push({ level: heading[1]!.length, title: heading[2]!.trim(), index });
    index += line.length + 1;
  }
  return found;
}

/**
 * The section whose heading is `title` (any level), up to the next heading of its level or
 * above, from whichever published document holds it. Exactly one document may hold it.
 */
export function publishedSection(title: string): { file: string; text: string } {
  const matches: { file: string; text: string }[] = [];
  for (const file of publishedDocFiles()) {
    const text = readPublishedDoc(file);
    const all = headings(text);
    all.forEach((heading, n) => {
      if (heading.title !== title) return;
      const end = all.slice(n + 1).find((next) => next.level <= heading.level)?.index ?? text.length;
      matches.push({ file, text: text.slice(heading.index, end) });
    });
  }
  if (matches.length !== 1) throw new Error(`section "${title}": found in ${matches.length} places (${matches.map((m) => m.file).join(', ')})`);
  return matches[0]!;
}

/** A file of the repository, such as `.env.example`. */
export function readRepositoryFile(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}

/**
 * Every match of `pattern` in the published documents, with the file it is in, so a test can
 * require that a fact is quoted somewhere and that every quote of it agrees with the constant.
 * White space is matched as one space, so a sentence wrapped over two lines is still found.
 */
export function quotesOf(pattern: RegExp): { path: string; match: RegExpMatchArray }[] {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return publishedDocFiles().flatMap((path) => [...readPublishedDoc(path).replace(/\s+/g, ' ').matchAll(global)].map((match) => ({ path, match })));
}

/** The first table row, in any published document, whose first cell is `cell` (as written, backticks included). */
export function tableRow(cell: string): string | undefined {
  const start = `| ${cell} |`;
  for (const path of publishedDocFiles()) {
    const row = readPublishedDoc(path)
      .split('\n')
      .find((line) => line.startsWith(start));
    if (row !== undefined) return row;
  }
  return undefined;
}
