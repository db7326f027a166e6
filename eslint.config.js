// ESLint: correctness rules only, every one an error. Layout is Prettier's job
// (`npm run format:check`), so no stylistic rule is enabled here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const unsafeAny = [
  '@typescript-eslint/no-unsafe-assignment',
  '@typescript-eslint/no-unsafe-member-access',
  '@typescript-eslint/no-unsafe-call',
  '@typescript-eslint/no-unsafe-return',
  '@typescript-eslint/no-unsafe-argument',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      // Build output, including the temporary folders a build in progress writes (dist.<pid>.tmp).
      '**/dist/**',
      '**/dist.*/**',
      'src/generated/**',
      'web/src/graphql-env.d.ts',
      'prisma/migrations/**',
      'test/fixtures/**',
      'bench/out/**',
      'data/**',
      '.test-data/**',
      '**/editor-dist*/**',
      '.scratch*/**',
    ],
  },
  {
    files: ['**/*.{ts,tsx,mts,js,mjs,cjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      ...Object.fromEntries(unsafeAny.map((rule) => [rule, 'error'])),
      // With noUncheckedIndexedAccess off, TypeScript never needs `list[i]!`; the code
      // writes it anyway where it relies on the index being in range, which documents the
      // assumption and keeps it compiling if that flag is turned on. So it stays.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // An async function without await still turns its throws into rejections, which
      // callers of a promise-returning interface rely on; dropping `async` would not.
      '@typescript-eslint/require-await': 'off',
      // Callbacks are declared with method syntax in interfaces (props, resolvers, styles)
      // and none of them uses `this`; the rule cannot tell and flags every destructuring.
      '@typescript-eslint/unbound-method': 'off',
      // File formats and sanitizers match control characters on purpose (XML's forbidden
      // characters, NUL in Git's output, binary sniffing).
      'no-control-regex': 'off',
      // A leading underscore marks a parameter or element kept for its position.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // A variable a closure reads before its one assignment (a callback that may run at once) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // An aborted operation rejects with its signal's reason, whatever the aborter gave.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // React ignores what an event handler returns, and the console's handlers mostly await
    // urql operations, which resolve with their error instead of rejecting. Promises passed
    // anywhere else (effects, timers, subscriptions) are still checked.
    files: ['web/src/**'],
    rules: {
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // One SQL vocabulary: statements are Prisma.sql fragments, whose
    // values are parameters by construction. The few statements that must be built as text
    // (a migration file's) say why in an inline disable.
    files: ['src/**', 'rest-compat/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['$queryRawUnsafe', '$executeRawUnsafe'].map((property) => ({
          property,
          message: 'Compose the statement with Prisma.sql / Prisma.join fragments ($queryRaw, $executeRaw).',
        })),
      ],
    },
  },
  {
    // Tests and benchmarks read answers (`res.json()`, GraphQL `data`) whose shape the
    // assertions themselves check; typing each one would restate the schema in every
    // file. The floating/misused promise rules still apply to them in full.
    files: ['test/**', 'bench/**'],
    rules: {
      ...Object.fromEntries(unsafeAny.map((rule) => [rule, 'off'])),
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The GraphQL execution plumbing: envelop's and Yoga's plugin hooks and graphql-js's
    // execution arguments are typed `any` by those libraries (variables, root values,
    // documents passed through), and graphql-js checks them itself when it executes.
    // Only these files, and only the unsafe-any family: the promise rules still apply.
    files: [
      'src/http/compiled-documents.ts',
      'src/http/console-session.ts',
      'src/http/execute.ts',
      'src/http/graphql.ts',
      'src/http/limits-graphql.ts',
      'src/http/limits-heavy.ts',
      'src/http/metrics.ts',
      'rest-compat/openapi.ts',
      'rest-compat/route.ts',
    ],
    rules: {
      ...Object.fromEntries(unsafeAny.map((rule) => [rule, 'off'])),
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Build and start-up glue in plain JavaScript: no tsconfig includes it (no
    // allowJs), so there are no types to check it with; the syntax rules still apply.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
