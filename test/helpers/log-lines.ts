/**
 * Raw log lines, read as a log shipper reads them: `JSON.parse` keeps the last of two equal keys
 * and so hides a duplicate, which many shippers reject or resolve differently.
 */

/** The keys of a JSON object's top level, in order and with repeats, read from its text. */
export function topLevelKeysOf(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const after = text.slice(end + 1).trimStart();
      if (depth === 1 && after.startsWith(':')) keys.push(JSON.parse(text.slice(i, end + 1)) as string);
      i = end;
    } else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
  }
  return keys;
}

/** The keys that appear more than once at the top level of a JSON line. */
export function duplicateKeysOf(line: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const key of topLevelKeysOf(line)) (seen.has(key) ? repeated : seen).add(key);
  return [...repeated];
}
