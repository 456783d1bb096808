/**
 * The project's documentation as the tests that check published text read it: README.md and
 * every docs/*.md together, so a sentence keeps being checked when it moves between them.
 */
import { readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);

/** The documentation files, README first, each with its path relative to the repository. */
export function documentationFiles(): { path: string; text: string }[] {
  const docs = readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(new URL(path, ROOT), 'utf8') }));
}

/** All of the documentation as one text (files separated by blank lines). */
export function readDocumentation(): string {
  return documentationFiles()
    .map((file) => file.text)
    .join('\n\n');
}

/** A file of the repository, such as `.env.example`. */
export function readRepositoryFile(path: string): string {
  return readFileSync(new URL(path, ROOT), 'utf8');
}

/**
 * Every match of `pattern` in the documentation, with the file it is in, so a test can require
 * that a fact is quoted somewhere and that every quote of it agrees with the constant. White space
 * is matched as one space, so a sentence wrapped over two lines is still found.
 */
export function quotesOf(pattern: RegExp): { path: string; match: RegExpMatchArray }[] {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return documentationFiles().flatMap(({ path, text }) => [...text.replace(/\s+/g, ' ').matchAll(global)].map((match) => ({ path, match })));
}

/** The first table row, in any documentation file, whose first cell is `cell` (as written, backticks included). */
export function tableRow(cell: string): string | undefined {
  const start = `| ${cell} |`;
  for (const { text } of documentationFiles()) {
    const row = text.split('\n').find((line) => line.startsWith(start));
    if (row !== undefined) return row;
  }
  return undefined;
}
