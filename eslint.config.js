// The linter of `npm test` and CI: ESLint's and typescript-eslint's recommended rules, without type
// information (tsc checks the types: `npm run typecheck`), so that it stays quick.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', '**/node_modules/', 'examples/*/dist/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_` names what a destructuring or a signature must take and the code does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  // Tests and benchmarks read JSON bodies, whose shape each assertion checks: `any` is what `response.json()` gives.
  { files: ['test/**/*.ts', 'bench/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The examples' plain JavaScript runs in Node and in browsers.
  {
    files: ['examples/**/*.js'],
    languageOptions: { globals: { fetch: 'readonly', URLSearchParams: 'readonly', console: 'readonly' } },
  },
)
