// @sandpiper/sandbox as a merchant's project installs it (docs/guides/test-in-your-own-suite.md "Install"): the tarball
// that `npm run pack:clients` builds, installed alone into an empty project outside the clone with the registry
// switched off. Shared by the test files of the package (test/integration/sandbox-*.test.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { CONTRACT_VERSION } from "@/lib/application/openapi/document";
import type { Sandbox, SandboxOptions } from "../../clients/sandbox/types/index";
import { assertMatchesContract } from "./contract";

const root = path.resolve(__dirname, "../..");

/** The environment a shell gives: none of the test run's npm variables (npm_config_*, npm_package_*). */
export const shellEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  ({ ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))), ...extra }) as NodeJS.ProcessEnv;

/**
 * Packs the tarball (one of the same inputs packed earlier in the run is reused) into `<scratch>/packages` and installs
 * it alone into the new empty project `<scratch>/project`, offline; checks that nothing else was installed.
 * @returns the project's folder, the installed package's folder and its startSandpiper
 */
export async function installSandboxPackage(scratch: string) {
  const packed = execFileSync("npm", ["run", "--silent", "pack:clients", "--", path.join(scratch, "packages")], {
    cwd: root,
    env: shellEnv(),
    encoding: "utf8",
  });
  const tarball = /^@sandpiper\/sandbox \S+: (\S+\.tgz)$/m.exec(packed)?.[1] ?? "";
  expect(path.basename(tarball)).toBe(`sandpiper-sandbox-${CONTRACT_VERSION}.tgz`);
  const project = path.join(scratch, "project");
  fs.mkdirSync(project);
  execFileSync("npm", ["init", "-y"], { cwd: project, env: shellEnv(), stdio: "ignore" });
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], {
    cwd: project,
    env: shellEnv({ npm_config_offline: "true" }),
    stdio: "pipe",
  });
  const installed = path.join(project, "node_modules", "@sandpiper", "sandbox");
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
  expect(pkg).toMatchObject({ name: "@sandpiper/sandbox", version: CONTRACT_VERSION, dependencies: {} });
  expect(pkg.scripts).toBeUndefined();
  expect(fs.readdirSync(path.join(project, "node_modules")).sort(), "nothing but the package is installed").toEqual([
    ".bin",
    ".package-lock.json",
    "@sandpiper",
  ]);
  const { startSandpiper } = (await import(pathToFileURL(path.join(installed, pkg.main)).href)) as {
    startSandpiper: (options?: SandboxOptions) => Promise<Sandbox>;
  };
  return { project, installed, startSandpiper };
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** The sandboxes' temporary folders (their database files) under the system's temporary folder. */
export const sandboxFolders = () => fs.readdirSync(os.tmpdir()).filter((name) => /^sandpiper-sandbox-[A-Za-z0-9]{6}$/.test(name));

/** The process id a sandbox folder's owner file names (its sandbox's process), or null when it has none (yet). */
export function folderOwner(name: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(os.tmpdir(), name, "owner.pid"), "utf8").trim());
  } catch {
    return null;
  }
}

/**
 * The sandbox folders of sandboxes this process started: those whose owner file names a process whose parent is this
 * one (other test files running beside this one start sandboxes of their own in the same temporary folder).
 */
export const ownSandboxFolders = () =>
  sandboxFolders().filter((name) => {
    try {
      const stat = fs.readFileSync(`/proc/${folderOwner(name)}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid;
    } catch {
      return false; // gone, or its owner file not written yet
    }
  });

/**
 * One API call to the sandbox at `url` with `key` (an Idempotency-Key on every method but GET), its answer checked
 * against the OpenAPI document.
 * @returns method, path, status, headers and the JSON body
 */
export async function sandboxApi(url: string, key: string, method: string, route: string, body?: unknown) {
  const res = await fetch(url + route, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(method === "GET" ? {} : { "idempotency-key": randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = { method, path: route.split("?")[0] ?? route, status: res.status, headers: res.headers, body: await res.json() };
  assertMatchesContract(answer);
  return answer;
}
