// Lint: sane TypeScript rules, no import cycles, and the floors of ARCHITECTURE.md as import
// boundaries. schemas/ is the ground floor; generators/ and reference-impl/ stand on it alone;
// harness/ on those; suites/ on top. Nothing imports a suite: vitest loads them by path.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** An import-boundary rule: `floors` are top folders the files of this floor must not import. */
function mayNotImport(floors, why) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: floors.flatMap((f) => [`**/${f}/**`, `**/${f}`]), message: why }] },
    ],
  };
}

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
  // The floors.
  { files: ['schemas/**'], rules: mayNotImport(['generators', 'reference-impl', 'harness', 'suites', 'test', 'contracts', 'bench', 'scripts'], 'schemas/ is the ground floor: it imports nothing of the project above it.') },
  { files: ['reference-impl/**'], rules: mayNotImport(['generators', 'harness', 'suites', 'test', 'contracts', 'bench', 'scripts'], 'The reference implementation stands on schemas/ alone.') },
  { files: ['generators/**'], rules: mayNotImport(['reference-impl', 'harness', 'suites', 'test', 'contracts', 'bench', 'scripts'], 'Generators stand on schemas/ alone.') },
  { files: ['harness/**'], rules: mayNotImport(['suites', 'test', 'contracts', 'bench', 'scripts'], 'The harness stands on schemas/, generators/ and reference-impl/; ' + NOT_SUITES) },
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
              message: 'A suite imports harness/conformance/index.ts (the façade) of the harness, and besides it only schemas/, generators/ and its own support/.',
            },
          ],
        },
      ],
    },
  },
  { files: ['test/**', 'contracts/**', 'bench/**', 'scripts/**', 'bin/**'], rules: mayNotImport(['suites'], NOT_SUITES) },
);
