// One jest run, three projects: unit tests sit beside the code; integration
// tests start real NATS and FerretDB; e2e drives the whole platform.
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
};
const shared = {
  transform,
  testEnvironment: 'node',
  // Tests run against sources; workspace libraries resolve to their src/.
  moduleNameMapper: { '^@transmute/([^/]+)$': '<rootDir>/libs/$1/src', '^(\\.{1,2}/.*)\\.js$': '$1' },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
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
  ],
  // Integration and e2e tests start real servers; unit tests never come near this.
  testTimeout: 180_000,
};
