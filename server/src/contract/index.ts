/**
 * Every request and response shape of the server's HTTP APIs, one file per API. Type-only: the
 * server's routes are typed with these, and the renderer imports them with `import type`, so no
 * server code reaches the browser bundle. Nothing here imports anything outside this folder.
 */
export type * from './errors.js';
export type * from './gateway.js';
export type * from './health.js';
export type * from './mock-table.js';
export type * from './query.js';
export type * from './workbench.js';
export type * from './workbench-auth.js';
