// ESLint (flat config) with typescript-eslint. Type-aware rules run where a missed case costs the
// most: a promise nobody awaits (an error that never reaches a handler, a write that races the
// next statement) and a switch that forgets a member of a union (a new message kind or event
// type silently falling into a default). `npm run lint` runs it; CI runs it before the tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'console/dist/', 'test-artifacts/', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `let server; … createServer(() => server.x); server = …`: read by a closure made before it is set.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Prettier owns line breaks; its chained calls (`.http()\n[method](path)`) trip this rule,
      // which eslint-config-prettier turns off for the same reason.
      'no-unexpected-multiline': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
);
