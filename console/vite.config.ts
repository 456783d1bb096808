/**
 * The console's build: Vite bundles console/src into dist/console/static/, which the service serves
 * at /console/ (src/console/console.routes.ts). Every file it writes under assets/ has its content's
 * hash in its name, so the service lets browsers keep them for ever. Nothing is inlined (no
 * `data:` URL, no inline script or style): the pages' Content-Security-Policy allows only files of
 * the service's own origin. static-inputs.json lists the files the bundle was made of, so `npm start`
 * (scripts/build-if-changed.js) rebuilds it only when one of them changed.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('../dist/console/static', import.meta.url));
/** Outside outDir, so it is never served; scripts/build-if-changed.js reads it. */
const INPUTS_RECORD = fileURLToPath(new URL('../dist/console/static-inputs.json', import.meta.url));

/** Writes static-inputs.json: the repository's files (not node_modules') the bundle was made of. */
function recordBuildInputs(): Plugin {
  let inputs: string[] = [];
  return {
    name: 'animal-store-build-inputs',
    generateBundle() {
      inputs = [...this.getModuleIds()]
        .filter((id) => id.startsWith(REPO_ROOT) && !id.includes('/node_modules/'))
        .map((id) => relative(REPO_ROOT, id.split('?')[0]!))
        .sort();
    },
    writeBundle() {
      writeFileSync(INPUTS_RECORD, `${JSON.stringify(inputs, null, 2)}\n`);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  resolve: {
    // The typed client's source, bundled as the browser needs it (its dist/ is built only when it is packed).
    alias: { '@animal-store/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) },
  },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  plugins: [recordBuildInputs()],
});
