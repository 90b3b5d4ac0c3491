#!/usr/bin/env node
// The `sandpiper` command of the @sandpiper/cli package (docs/callbacks.md "The sandpiper command"): the bundle in
// dist/main.js is src/main.ts and everything it imports, built by scripts/pack-clients.mjs.
import { main } from "../dist/main.js";

process.exit(await main(process.argv.slice(2)));
