#!/usr/bin/env node
// The `episodic` executable npm links into node_modules/.bin. It is committed (not
// built) so the link exists right after `npm ci`, which links bins before the build
// creates dist/; npm also marks it executable then. The CLI itself is dist/main.js.
import '../dist/main.js';
