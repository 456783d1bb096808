/**
 * The headers of every answer under /console/: a Content-Security-Policy that lets the page load
 * and call only its own origin (no inline script or style, no plugin, no frame, no other site),
 * and that no site may frame (clickjacking). Data from the API is rendered as text by Preact, so
 * an animal named `<img src=x onerror=…>` shows as those characters; the policy is the second
 * wall if that ever broke.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const CONSOLE_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;
