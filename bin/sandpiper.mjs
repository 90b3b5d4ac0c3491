#!/usr/bin/env node
// The `sandpiper` command: `npx sandpiper listen --forward-to http://localhost:4000/hook` (README "Receiving
// callbacks"). It runs the TypeScript sources through tsx, so it works from a clone without a build.
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../lib/listen/cli.ts", import.meta.url);
process.exit(await main(process.argv.slice(2)));
