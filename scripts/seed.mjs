// npm run seed [-- --json]: seeds the sandbox (docs/guides/operate-sandpiper.md "Seeded sandbox"). With DATABASE_URL it seeds that database.
// Without it, the embedded database: through the running service when one serves it, otherwise opened here
// (migrated first, closed afterwards).
import fs from "node:fs";
import path from "node:path";
import { isEmpty, seed, withCommandDatabase } from "./db.mjs";

const args = process.argv.slice(2);

withCommandDatabase(async (url, env, dataDir) => {
  const embedded = env.SANDPIPER_EMBEDDED === "1";
  const fresh = embedded && (await isEmpty(url));
  const out = await seed(url, args, env);
  process.stdout.write(out);
  // The first seed's output holds the only copy of the console passwords: `npm start` prints it again.
  if (fresh && !args.includes("--json")) fs.writeFileSync(path.join(dataDir, "credentials.txt"), out, { mode: 0o600 });
}).catch((error) => {
  console.error(`npm run seed: ${error.message}`);
  process.exit(1);
});
