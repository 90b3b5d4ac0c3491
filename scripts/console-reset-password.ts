// npm run console:reset-password -- <username>: a new random password for a console user, printed once (docs/guides/operate-sandpiper.md
// "Seeded sandbox"). Works on DATABASE_URL, or on the embedded database whether the service runs or not.
import fs from "node:fs";
import path from "node:path";
import { withCommandDatabase } from "./db.mjs";

const USAGE = "usage: npm run console:reset-password -- <username>";

/** The embedded install's credentials.txt (what `npm start` prints again) with `username`'s password replaced. */
function updateCredentialsFile(dataDir: string, username: string, password: string) {
  const file = path.join(dataDir, "credentials.txt");
  if (!fs.existsSync(file)) return;
  const text = fs.readFileSync(file, "utf8");
  const escaped = username.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const updated = text.replace(new RegExp(`(console \\S+\\s+${escaped} / )\\S+`, "g"), (_m, head: string) => `${head}${password}`);
  if (updated !== text) fs.writeFileSync(file, updated, { mode: 0o600 });
}

async function main(): Promise<number> {
  const username = process.argv[2]?.trim();
  if (!username || process.argv.length > 3) {
    console.error(USAGE);
    return 1;
  }
  return withCommandDatabase(async (url, env, dataDir) => {
    Object.assign(process.env, env, { DATABASE_URL: url });
    const { getDb, transaction } = await import("@/lib/platform/db");
    const { ApiError } = await import("@/lib/contract/errors");
    const { resetPassword } = await import("@/lib/domain/users/manage-users");
    const db = getDb();
    try {
      const { user, password } = await transaction((tx) => resetPassword(tx, { username }));
      if (env.SANDPIPER_EMBEDDED) updateCredentialsFile(dataDir, user.username, password);
      console.log(`New password for console user ${user.username}: ${password}`);
      console.log("Shown once: only its hash is kept. The user's sessions were ended; API keys are unchanged.");
      if (!user.active) console.log(`${user.username} is deactivated: an operator re-activates it on the console's Users page before it can sign in.`);
      return 0;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "NOT_FOUND") throw error;
      const names = (await db.consoleUser.findMany({ select: { username: true }, orderBy: { username: "asc" }, take: 20 })).map((u) => u.username);
      console.error(
        `npm run console:reset-password: no console user is named "${username}" (names are case-sensitive). Console users: ${names.join(", ") || "none"}.`,
      );
      return 1;
    } finally {
      await db.$disconnect();
    }
  });
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`npm run console:reset-password: ${error.message}`);
    process.exit(1);
  },
);
