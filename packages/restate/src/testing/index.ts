/**
 * `@episodic/restate/testing`: a throwaway Restate server from its npm binary (see restate-server.ts).
 */
export { freePort, RestateServer, serverBinary } from './restate-server.js';
export type { RestatePorts, RestateServerOptions } from './restate-server.js';
