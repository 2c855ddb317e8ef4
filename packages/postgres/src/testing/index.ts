/**
 * `@episodic/postgres/testing`: a throwaway PostgreSQL server for tests and benchmarks.
 */
export * from './local-server.js';
