import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The source (service, client, scripts, bench) gets all of typescript-eslint's type-aware
// recommended rules; of those, the tests get the promise rules only (below): their bodies read
// JSON answers as `any` and fake async interfaces, which the other rules would flag line by line.
const SOURCE = ['src/**/*.ts', 'client/src/**/*.ts', 'console/src/**/*.{ts,tsx}', 'console/vite.config.ts', 'scripts/**/*.ts', 'bench/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/', 'client/dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with the types of the tsconfig.json that includes it (the root
        // one, client/'s or console/'s).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  { files: SOURCE, extends: [tseslint.configs.recommendedTypeChecked] },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: SOURCE,
    rules: {
      // Fastify takes an async function as a plugin or hook that needs no `done` callback, and
      // fakes implement async interfaces: an async function without await is the API here.
      '@typescript-eslint/require-await': 'off',
      // A URL or URLSearchParams prints as its text, which is what a template wants of it
      // (the rule's default allows them only as the DOM's types; Node.js declares its own).
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allow: [
            { from: 'lib', name: ['Error', 'URL', 'URLSearchParams'] },
            { from: 'package', package: 'url', name: ['URL', 'URLSearchParams'] },
          ],
        },
      ],
    },
  },
  {
    // Migrations are frozen in time: they take Kysely<any> (never the app's Database type, which
    // moves on), so what their builders return is untyped by design.
    files: ['src/db/migrations/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The promise rules everywhere, tests included: a promise nobody awaits is an error nobody
    // sees, or an assertion that runs after its test has passed. node:test's describe/it/test
    // return promises the runner itself awaits.
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  // Plain JavaScript files (this config, the bench's baseline server) belong to no tsconfig.
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
);
