// ESLint 9 flat config: typescript-eslint (type-aware), the walls between
// packages (eslint-plugin-boundaries), and Prettier owning the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/** Which libs each lib may import (besides itself): the layers, foundation first. */
const LIB_LAYERS = {
  contracts: [],
  'service-kit': [],
  devstack: [],
  'api-schema': ['contracts'],
  messaging: ['contracts', 'service-kit'],
  storage: ['contracts', 'service-kit'],
  persistence: ['service-kit'],
  'net-guard': ['service-kit'],
  connectors: ['contracts', 'service-kit', 'net-guard', 'storage', 'messaging'],
};
const RUNTIME_LIBS = Object.keys(LIB_LAYERS).filter((name) => name !== 'devstack');

const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts', 'e2e/**/*.ts', 'libs/devstack/**/*.ts', '**/*.test-support.ts'];
const RUNTIME_FILES = ['**/*.{ts,tsx}'];

function boundaryBlock(files, { tests }) {
  const libs = (names) => names.map((name) => ['lib', { name }]);
  const runtimeOrTest = tests ? [...RUNTIME_LIBS, 'devstack'] : RUNTIME_LIBS;
  return {
    files,
    ...(tests ? {} : { ignores: TEST_FILES }),
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: ['./tsconfig.eslint.json', './services/website/tsconfig.eslint.json'], noWarnOnMultipleProjects: true } },
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
          message: tests
            ? '${file.type} ${file.name} may not import ${dependency.type} ${dependency.name}: shared code goes in libs/, a lib only imports the libs below it'
            : '${file.type} ${file.name} may not import ${dependency.type} ${dependency.name}: shared code goes in libs/, a lib only imports the libs below it, and devstack is for tests and make up only',
          rules: [
            { from: ['service'], allow: [...libs(runtimeOrTest), ['service', { name: '${from.name}' }]] },
            ...Object.entries(LIB_LAYERS).map(([name, below]) => ({
              from: [['lib', { name }]],
              allow: libs([name, ...below, ...(tests && name !== 'devstack' ? ['devstack'] : [])]),
            })),
            { from: ['e2e'], allow: [...libs([...RUNTIME_LIBS, 'devstack']), 'e2e'] },
          ],
        },
      ],
    },
  };
}

/** The gateway's identity rooms, top first: a room may import the rooms after it, never those before it. */
const GATEWAY_ROOMS = ['dashboard', 'oauth', 'people', 'sessions', 'keys', 'accounts', 'auth', 'limits', 'http'];
/** Rooms reached through their index.ts (http is plain helpers; nobody imports dashboard). */
const ROOMS_WITH_PORTS = ['oauth', 'people', 'sessions', 'keys', 'accounts', 'auth', 'limits'];

function gatewayRoomBlocks() {
  const GATEWAY_TESTS = ['services/gateway/**/*.spec.ts', 'services/gateway/test/**'];
  const throughPorts = {
    group: ROOMS_WITH_PORTS.map((room) => `../${room}/*`),
    message: 'another room is reached through its index.ts (its port), not through its files',
  };
  return [
    { files: ['services/gateway/src/**/*.ts'], ignores: GATEWAY_TESTS, rules: { 'no-restricted-imports': ['error', { patterns: [throughPorts] }] } },
    ...GATEWAY_ROOMS.slice(1).map((room, index) => ({
      files: [`services/gateway/src/${room}/**/*.ts`],
      ignores: GATEWAY_TESTS,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              throughPorts,
              {
                group: GATEWAY_ROOMS.slice(0, index + 1).flatMap((above) => [`../${above}`, `../${above}/*`]),
                message: `${room} may not import a room above it: imports run down the rooms (docs/decisions.md, "Gateway identity rooms")`,
              },
            ],
          },
        ],
      },
    })),
  ];
}

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

  // The walls: a service imports only libs and itself; a lib imports only the
  // libs below it (LIB_LAYERS); e2e drives the platform from outside and imports
  // only libs. devstack (tools, local servers) is for tests and make up, never
  // runtime code: only tests, e2e and devstack itself may import it.
  boundaryBlock(RUNTIME_FILES, { tests: false }),
  boundaryBlock(TEST_FILES, { tests: true }),

  // The gateway's identity rooms (docs/decisions.md, "Gateway identity rooms"):
  // another room is reached only through its index.ts, and imports run down
  // GATEWAY_ROOMS, never back up.
  ...gatewayRoomBlocks(),
  prettier,
);
