// Lint: sane TypeScript rules, no import cycles, and the floors of ARCHITECTURE.md as import
// boundaries. schemas/ is the ground floor; generators/ and reference-impl/ stand on it alone;
// harness/ on those; suites/ on top. Nothing imports a suite: vitest loads them by path.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** An import-boundary rule: `floors` are top folders the files of this floor must not import. */
function mayNotImport(floors, why) {
  return {
    'no-restricted-imports': ['error', { patterns: [{ group: floors.flatMap((f) => [`**/${f}/**`, `**/${f}`]), message: why }] }],
  };
}

/** What the harness may not import at all. */
const HARNESS_NOT = ['suites', 'test', 'contracts', 'bench', 'scripts'];

/**
 * The rooms of harness/, from the top: cli/ reads the command line; selftest/ and run/ stand on the
 * rest; suite-runner/ runs the suites; discovery/ probes a target through http/ and sse/;
 * conformance/ (the suites' façade), report/, profile/, http/ and sse/ never import upward. traceability/ (read by the selftest) and the harness's top-level
 * files are outside this order.
 */
const HARNESS_ROOMS = ['cli', 'selftest', 'run', 'suite-runner', 'pact', 'proxy', 'reference', 'discovery', 'report', 'conformance', 'sse', 'http', 'profile'];

/** Functions that are declarative tables (a document written as one literal), exempt from the 80-line limit. */
const DECLARATIVE_TABLES = [
  // The OpenAPI documents the reference serves: one object literal of paths and their answers.
  'reference-impl/control-plane/openapi.ts',
  'reference-impl/experiment-upload/openapi.ts',
];

const NOT_SUITES = 'Nothing imports a suite: vitest loads suites/ by path (harness/suite-runner/suite-vitest.ts).';

export default tseslint.config(
  { ignores: ['node_modules/**', 'reports/**', 'docs/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mjs,js}'],
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    settings: { 'import-x/extensions': ['.ts', '.mjs', '.js'] },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // TypeScript checks these better than the linter can (tsc --noEmit runs in CI).
      'no-undef': 'off',
      'no-redeclare': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // An interface that only extends another is how vitest's TaskMeta is augmented.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Sanitizers and SSE parsers match control characters on purpose.
      'no-control-regex': 'off',
      // Errors rethrown with a message for the user say what to fix; the cause is the user's input.
      'preserve-caught-error': 'off',
    },
  },
  {
    files: ['test/**', 'bench/**', 'contracts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Small files and short functions: no source file over 400 lines, no function over 80. Tests and
  // contracts are exempt from the second: a describe block is a list of tests, not a function to read.
  { files: ['**/*.{ts,mjs,js}'], rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] } },
  {
    files: ['harness/**', 'reference-impl/**', 'suites/**', 'bench/**', 'generators/**', 'schemas/**', 'scripts/**', 'bin/**'],
    ignores: DECLARATIVE_TABLES,
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  // The floors.
  {
    files: ['schemas/**'],
    rules: mayNotImport(
      ['generators', 'reference-impl', 'harness', 'suites', 'test', 'contracts', 'bench', 'scripts'],
      'schemas/ is the ground floor: it imports nothing of the project above it.',
    ),
  },
  {
    files: ['reference-impl/**'],
    rules: mayNotImport(['generators', 'harness', 'suites', 'test', 'contracts', 'bench', 'scripts'], 'The reference implementation stands on schemas/ alone.'),
  },
  {
    files: ['generators/**'],
    rules: mayNotImport(['reference-impl', 'harness', 'suites', 'test', 'contracts', 'bench', 'scripts'], 'Generators stand on schemas/ alone.'),
  },
  { files: ['harness/**'], rules: mayNotImport(HARNESS_NOT, 'The harness stands on schemas/, generators/ and reference-impl/; ' + NOT_SUITES) },
  // The rooms inside the harness, top down (ARCHITECTURE.md): each imports none above it.
  ...HARNESS_ROOMS.map((room, i) => ({
    files: [`harness/${room}/**`],
    rules: mayNotImport(
      [...HARNESS_NOT, ...HARNESS_ROOMS.slice(0, i)],
      `harness/${room}/ imports none of the rooms above it (${HARNESS_ROOMS.slice(0, i).join(', ') || 'none'}); ` + NOT_SUITES,
    ),
  })),
  // The suites' façade is closed: of the harness, a suite (and its support/) imports harness/conformance/index.ts alone.
  {
    files: ['suites/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(harness/(?!conformance/index\\.ts$)|reference-impl/|test/|contracts/|bench/|scripts/)',
              message:
                'A suite imports harness/conformance/index.ts (the façade) of the harness, and besides it only schemas/, generators/ and its own support/.',
            },
          ],
        },
      ],
    },
  },
  { files: ['test/**', 'contracts/**', 'bench/**', 'scripts/**', 'bin/**'], rules: mayNotImport(['suites'], NOT_SUITES) },
);
