#!/usr/bin/env node
// The command's entry. libuv sizes Node's thread pool once, at its first use, and loading ES modules
// already uses it: so the size is set here, in CommonJS, before the server's modules load. Every DuckDB
// query holds a pool thread while it computes; with the default 4, max_concurrent long queries could
// hold them all and leave none to parse the next query or read a file (docs/query.md, "The thread pool").
// A size set by the caller wins.
'use strict';
process.env.UV_THREADPOOL_SIZE ??= '16';
import('../dist/src/main/cli.js').catch((error) => {
  console.error(error);
  process.exit(1);
});
