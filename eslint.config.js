// The linter of `npm test` and CI: ESLint's and typescript-eslint's recommended rules, without type
// information (tsc checks the types: `npm run typecheck`), so that it stays quick.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', '**/node_modules/', 'examples/*/dist/', '.scratch/', 'reports/', '.stryker-tmp/'] },
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
  // The product's code (not tests, benchmarks or examples) also gets the rules that need types: a
  // promise nobody awaits or catches, a promise where a callback's result is ignored, an await of what
  // is not a promise, a switch that misses a member of a union, and a read-await-write race
  // (require-atomic-updates: the pattern of the concurrent adds' collision). Linted with the
  // TypeScript program, it takes a few seconds more.
  {
    files: ['src/**/*.ts', 'handlers/**/*.ts', 'factories/**/*.ts', 'scenarios/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A `default:` handles the rest of a union on purpose.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'require-atomic-updates': 'error',
    },
  },
  // Tests and benchmarks read JSON bodies, whose shape each assertion checks: `any` is what `response.json()` gives.
  { files: ['test/**/*.ts', 'bench/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The examples' plain JavaScript runs in Node and in browsers.
  {
    files: ['examples/**/*.js'],
    languageOptions: {
      globals: { fetch: 'readonly', URLSearchParams: 'readonly', URL: 'readonly', console: 'readonly' },
    },
  },
  // The package jobs' consumer projects (.ci/package-jobs) are CommonJS in Node, as their users write it.
  {
    files: ['.ci/consumers/**/*.{js,cjs}'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', fetch: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // A test runner's global setup runs in Node.
  { files: ['examples/*/test/global-*.js'], languageOptions: { globals: { process: 'readonly' } } },
)
