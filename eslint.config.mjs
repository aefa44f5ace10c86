// ESLint 9 flat config: typescript-eslint (type-aware), the walls between
// packages (eslint-plugin-boundaries), and Prettier owning the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'libs/contracts/src/gen/**', 'coverage/**', '.tools/**', '.tools', '.transmute/**', 'charts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  // The website is a browser program (DOM, Preact's JSX) with a program of its own.
  {
    files: ['services/website/**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { project: './services/website/tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // `_name` marks a parameter or binding kept for its position or to leave it out of a rest object.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `async` without `await` is deliberate here: it keeps a Promise-returning contract
      // and turns a synchronous throw into a rejection the caller's catch sees.
      '@typescript-eslint/require-await': 'off',
      // A callback registered before the value it reads exists (e.g. a subscription that buffers until a session opens).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' } },
    // Configuration files that Node and jest load as CommonJS: require is how they import.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // Tests read JSON bodies and rendered manifests (`any`) and assert on them with
  // expect(); the any-safety rules would only make them cast what expect() checks.
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },

  // The walls: a service imports only libs and itself; a lib imports only libs;
  // e2e drives the platform from outside and imports only libs.
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.eslint.json' } },
      'boundaries/include': ['libs/*/**', 'services/*/**', 'e2e/**'],
      'boundaries/elements': [
        { type: 'service', pattern: 'services/*', mode: 'folder', capture: ['name'] },
        { type: 'lib', pattern: 'libs/*', mode: 'folder', capture: ['name'] },
        { type: 'e2e', pattern: 'e2e', mode: 'folder' },
      ],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          message: '${file.type} ${file.name} may not import ${dependency.type} ${dependency.name}: shared code goes in libs/',
          rules: [
            { from: ['service'], allow: ['lib', ['service', { name: '${from.name}' }]] },
            { from: ['lib'], allow: ['lib'] },
            { from: ['e2e'], allow: ['lib', 'e2e'] },
          ],
        },
      ],
    },
  },
  prettier,
);
