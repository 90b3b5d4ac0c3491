// Where `sandpiper listen` keeps its cursor between runs (docs/callbacks.md "sandpiper listen").
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { StateFile } from "./messages";

/**
 * What the state file holds: the feed position up to which every item was delivered (a 2xx from the receiver),
 * and the positions after it that were delivered too (behind one still being retried), if any.
 */
export type ListenState = { apiUrl: string; cursor: string; delivered?: string[]; updatedAt: string };

/**
 * The default state file of a listener: `<config folder>/sandpiper/listen-<id>.json`, the config folder being
 * XDG_CONFIG_HOME, else ~/.config (APPDATA on Windows); `<id>` is a hash of the service URL and the API key, so
 * each key on each service keeps its own cursor (the key itself is never written).
 */
export function defaultStateFile(apiUrl: string, apiKey: string): string {
  const base = process.env.XDG_CONFIG_HOME || (process.platform === "win32" && process.env.APPDATA) || path.join(os.homedir(), ".config");
  const id = createHash("sha256").update(`${apiUrl}\n${apiKey}`).digest("hex").slice(0, 16);
  return path.join(base, "sandpiper", `listen-${id}.json`);
}

/**
 * Reads a state file's cursor and delivered positions (clients/cli/src/listen/messages.ts StateFile); null when the file does not
 * exist or cannot be read as one (the listener then starts at the newest event).
 */
export function readState(file: string): Pick<ListenState, "cursor" | "delivered"> | null {
  try {
    const parsed = StateFile.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes a state file atomically (a temporary file renamed over it), creating its folder (mode 0700). */
export function writeState(file: string, state: ListenState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}
