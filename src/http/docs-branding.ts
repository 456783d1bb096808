/**
 * The look of /docs: the animal store's title, logo and icon instead of Swagger UI's and
 * Fastify's. Everything is served by the service itself (no request leaves for another host).
 */

/** A paw print: the logo in the top bar and the browser tab's icon. */
export const DOCS_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
<g fill="#2e7d32">
<ellipse cx="32" cy="44" rx="14" ry="11"/>
<ellipse cx="14" cy="28" rx="6" ry="8"/>
<ellipse cx="26" cy="17" rx="6" ry="8"/>
<ellipse cx="38" cy="17" rx="6" ry="8"/>
<ellipse cx="50" cy="28" rx="6" ry="8"/>
</g>
</svg>
`;

const DOCS_TITLE = 'Animal Store API';

/** The `logo` and `theme` options of @fastify/swagger-ui. */
export function docsBranding(): {
  logo: { type: string; content: Buffer; href: string };
  theme: { title: string; favicon: { filename: string; rel: string; sizes: string; type: string; content: Buffer }[] };
} {
  const content = Buffer.from(DOCS_LOGO_SVG);
  return {
    logo: { type: 'image/svg+xml', content, href: '/docs' },
    theme: { title: DOCS_TITLE, favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content }] },
  };
}
