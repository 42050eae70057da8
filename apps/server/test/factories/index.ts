/** Row builders for tests; the demo seed uses the same ones. */
export * from '../../src/seed/builders.js';
