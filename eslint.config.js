// One tool for lint and format: ESLint with typescript-eslint and @stylistic.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/bundle/**', '**/node_modules/**', 'bench/results/**', 'examples/ci-debugger/fixtures/**', 'test-output/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  stylistic.configs.customize({ indent: 2, quotes: 'single', semi: true, jsx: false, braceStyle: '1tbs', arrowParens: true }),
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        AbortController: 'readonly', AbortSignal: 'readonly', Buffer: 'readonly', clearInterval: 'readonly',
        clearTimeout: 'readonly', console: 'readonly', document: 'readonly', fetch: 'readonly', performance: 'readonly',
        process: 'readonly', queueMicrotask: 'readonly', Response: 'readonly', setImmediate: 'readonly',
        setInterval: 'readonly', setTimeout: 'readonly', structuredClone: 'readonly', TextDecoder: 'readonly',
        TextEncoder: 'readonly', URL: 'readonly', window: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@stylistic/max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreComments: true, ignoreRegExpLiterals: true }],
      '@stylistic/operator-linebreak': 'off',
      '@stylistic/indent-binary-ops': 'off',
      '@stylistic/multiline-ternary': 'off',
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/quote-props': ['error', 'as-needed'],
      '@stylistic/arrow-parens': ['error', 'always'],
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/max-statements-per-line': 'off',
    },
  },
);
