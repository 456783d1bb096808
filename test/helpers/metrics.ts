/** Reading the Prometheus text exposition in tests: one sample's value, by exact name and labels. */

/** The value of the sample `name{labels}`, or undefined when the exposition has no such series. */
export function sampleValue(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([label, value]) => `${label}="${value}"`)
    .sort()
    .join(',');
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = (match[2] ?? '').match(/[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"/g) ?? [];
    if ([...given].sort().join(',') === wanted) return Number(match[3]);
  }
  return undefined;
}

/** Every label set of the metric `name`, as `label="value",…` strings, sorted. */
export function seriesOf(exposition: string, name: string): string[] {
  return exposition
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => /^[^{ ]*(?:\{(.*)\})? \S+$/.exec(line)?.[1] ?? '')
    .sort();
}
