/**
 * The one table of which methods each path allows, learnt from the routes as they are added
 * (onRoute). It answers the two questions Fastify's router does not: the `Allow` of a 405
 * (error-handler.ts) and the Allow-Methods of a CORS preflight (cors.ts). Register it before any
 * route. The routes' patterns are plain: static segments, `:name` parameters (one whole segment)
 * and a final `*`; a route written otherwise stops the service at start rather than be misread.
 */
import type { FastifyInstance } from 'fastify';

const HTTP_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;

interface RoutePattern {
  segments: string[];
  /** Ends in `*`: matches whatever follows its other segments. */
  wildcard: boolean;
  methods: Set<string>;
}

export interface RouteTable {
  /** The methods routed at a concrete path (`/v1/pets/7`), in HTTP_METHODS order; none for an unknown path. */
  methodsAt(path: string): string[];
}

export function createRouteTable(app: FastifyInstance): RouteTable {
  const patterns = new Map<string, RoutePattern>();
  app.addHook('onRoute', (route) => {
    let pattern = patterns.get(route.url);
    if (!pattern) {
      pattern = parsePattern(route.url);
      patterns.set(route.url, pattern);
    }
    for (const method of [route.method].flat()) pattern.methods.add(method.toUpperCase());
  });
  return {
    methodsAt(path) {
      const segments = path.split('/').map(decodeSegment);
      const allowed = new Set<string>();
      for (const pattern of patterns.values()) {
        if (matches(pattern, segments)) for (const method of pattern.methods) allowed.add(method);
      }
      return HTTP_METHODS.filter((method) => allowed.has(method));
    },
  };
}

function parsePattern(url: string): RoutePattern {
  const segments = url.split('/');
  const wildcard = segments.at(-1) === '*';
  if (wildcard) segments.pop();
  for (const segment of segments) {
    const plainParameter = /^:[A-Za-z_][A-Za-z0-9_]*$/.test(segment);
    if (segment.includes('*') || (segment.includes(':') && !plainParameter)) {
      throw new Error(`route ${url}: route-table.ts reads only static segments, whole-segment :parameters and a final *`);
    }
  }
  return { segments, wildcard, methods: new Set() };
}

function matches(pattern: RoutePattern, segments: string[]): boolean {
  const { segments: expected, wildcard } = pattern;
  if (wildcard ? segments.length <= expected.length : segments.length !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i]!;
    if (want.startsWith(':') ? segments[i] === '' : want !== segments[i]) return false;
  }
  return true;
}

/** A segment as the router compares it: percent-decoded when it decodes, else as sent. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
