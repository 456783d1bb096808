/** Reading Node's `rawHeaders`, where a header sent twice is still two entries. */

/** How many times a header (lower-case name) occurs in Node's `rawHeaders` (name, value, name, value…). */
export function occurrencesOf(name: string, rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) count += 1;
  return count;
}
