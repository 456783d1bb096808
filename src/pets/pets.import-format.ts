/** Which files `pets import` reads, by name alone: the CLI refuses any other before loading the importer. */
export type ImportFormat = 'csv' | 'ndjson';

/** The format a file's name says, if it is one this command reads. */
export function importFormatOf(path: string): ImportFormat | undefined {
  const extension = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension === 'csv' || extension === 'ndjson' ? extension : undefined;
}
