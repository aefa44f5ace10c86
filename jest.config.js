// One jest run, four projects: unit tests sit beside the code; integration
// tests start real NATS and FerretDB; e2e drives the whole platform; cluster
// drives the Helm chart installed on the cluster of `make cluster`.
const { realpathSync } = require('node:fs');
const { join } = require('node:path');

// file-type (libs/storage) and its dependencies are ES modules only, and jest
// runs CommonJS: swc compiles them too, and file-type is mapped to its Node
// entry (its exports offer no condition jest's require matches).
const ESM_ONLY = ['file-type', 'strtok3', 'token-types', 'uint8array-extras', '@tokenizer/inflate', '@borewit/text-codec'];
const fileTypeEntry = join(realpathSync(join(__dirname, 'libs/storage/node_modules/file-type')), 'index.js');

const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    },
  ],
  '^.+\\.js$': ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};
const shared = {
  transform,
  testEnvironment: 'node',
  // Tests run against sources; workspace libraries resolve to their src/.
  moduleNameMapper: { '^@transmute/([^/]+)$': '<rootDir>/libs/$1/src', '^(\\.{1,2}/.*)\\.js$': '$1', '^file-type$': fileTypeEntry },
  // pnpm's real paths are node_modules/.pnpm/<pkg>@<v>/node_modules/<pkg>/...: the second segment decides.
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm|${ESM_ONLY.join('|')})/)`],
  // .transmute/ holds the local platform's state and the cluster's containerd, whose image layers carry built copies of every package.
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/.transmute/', '<rootDir>/test-results/'],
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{libs,services}/*/src/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/*/test/**/*.int-spec.ts'],
    },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/e2e/src/**/*.e2e-spec.ts'] },
    // The chart on a real cluster (`make test-cluster`); `make test` leaves it out.
    { ...shared, displayName: 'cluster', testMatch: ['<rootDir>/e2e/src/cluster/**/*.cluster-spec.ts'] },
  ],
  // Integration and e2e tests start real servers; unit tests never come near this.
  testTimeout: 180_000,
};
