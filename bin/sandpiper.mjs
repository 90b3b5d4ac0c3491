#!/usr/bin/env node
// The `sandpiper` command (docs/callbacks.md "The sandpiper command"; docs/guides/command-line.md "The sandpiper command" puts it on the
// PATH). It runs the TypeScript sources through tsx, so it works from a clone without a build. Invoked through a
// symlink from another folder, Node runs this file from its real place in the clone, so `tsx` and the sources are
// found there, and the clone's tsconfig.json is used whatever folder the command runs in.
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../clients/cli/src/main.ts", {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
});
process.exit(await main(process.argv.slice(2)));
