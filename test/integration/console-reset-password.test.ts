import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import { createConsoleUser, db } from "../support/fixtures";
import { getWithSession, signIn } from "../support/console-http";

// docs/guides/operate-sandpiper.md "Seeded sandbox": `npm run console:reset-password -- <username>` gives a console user a new password,
// printed once, through the users service (argon2id, the row's old sign-in counts cleared, sessions ended, audited).

const root = path.resolve(__dirname, "../..");

/** `npm run --silent console:reset-password -- <args>` on the test database; exit code, stdout and stderr. */
function resetPassword(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "console:reset-password", "--", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr: stderr.replace(/^npm warn .*\n/gm, "") }));
  });
}

describe("npm run console:reset-password", () => {
  it("prints a new password once; it signs in, the old one and the old sessions are refused, the row's old lock is cleared, and it is audited", async () => {
    const old = "old-password-123";
    const user = await createConsoleUser(db, { username: `reset-${randomUUID().slice(0, 8)}`, password: old, role: "OPERATOR" });
    const before = (await signIn(user.username, old)).cookie!;
    const reads = async (cookie: string) => (await getWithSession("/api/console/payments?limit=1", cookie)).status;
    expect(await reads(before)).toBe(200);
    // A lock kept on the row before the sign-in limits moved to the rate limits' store: the reset clears it.
    await db.consoleUser.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: new Date(Date.now() + 15 * 60_000) } });

    const { code, stdout, stderr } = await resetPassword(user.username);
    expect(code, stderr).toBe(0);
    const password = new RegExp(`^New password for console user ${user.username}: (\\S+)$`, "m").exec(stdout)?.[1];
    expect(password, stdout).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(stdout.split(password!).length - 1, "the password is printed once").toBe(1);

    const signedIn = await signIn(user.username, password!);
    expect(signedIn.cookie, JSON.stringify(signedIn.body)).not.toBeNull();
    expect(await reads(signedIn.cookie!)).toBe(200);
    expect((await signIn(user.username, old)).cookie, "the old password is refused").toBeNull();
    expect(await reads(before), "a session from before the reset is ended").toBe(401);

    const stored = await db.consoleUser.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored.lockedUntil).toBeNull();
    const audit = await db.auditLog.findMany({ where: { entityId: user.id, action: "console_user.reset_password" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: null, actorName: "command line", entity: "console_user" });
    expect(JSON.stringify(audit[0])).not.toContain(password!);
  });

  it("an unknown user name: exit 1 with one line that says so and lists the user names; nothing changes", async () => {
    const count = await db.auditLog.count({ where: { action: "console_user.reset_password" } });
    const name = `nobody-${randomUUID().slice(0, 8)}`;
    const { code, stdout, stderr } = await resetPassword(name);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(
      new RegExp(`^npm run console:reset-password: no console user is named "${name}" \\(names are case-sensitive\\)\\. Console users: [a-z0-9]`),
    );
    expect(await db.auditLog.count({ where: { action: "console_user.reset_password" } })).toBe(count);
    const usage = await resetPassword();
    expect(usage.code).toBe(1);
    expect(usage.stderr.trim()).toBe("usage: npm run console:reset-password -- <username>");
  });
});
