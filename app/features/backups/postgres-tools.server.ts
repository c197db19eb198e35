import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { BackupRefusal } from "./errors";

/**
 * PostgreSQL's own tools (Debian's postgresql-client) for backups with DATABASE_URL: pg_dump's
 * custom format is what every PostgreSQL operator can read, restore selectively and check with
 * `pg_restore --list`. The password goes to the tool in PGPASSWORD, never on its command line
 * (which every user of the machine can read in the process list).
 */
type Tool = "pg_dump" | "pg_restore";

export const MISSING_TOOL = (tool: Tool) => `${tool} was not found; install postgresql-client (Debian: apt-get install postgresql-client)`;

function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Why a tool failed, with what to do for the failures an operator meets (the client older than the server). */
export function explainToolFailure(tool: Tool, stderr: string): string {
  const lines = stderr.trim().split("\n").filter(Boolean);
  let text = `${tool} failed: ${lines.slice(-3).join(" / ") || "no message"}`;
  const server = /server version: (\d+)/.exec(stderr);
  if (/server version mismatch/.test(stderr) && server) {
    text += `. ${tool} must be at least the server's major version (${server[1]}): install postgresql-client-${server[1]} (Debian: apt-get install postgresql-client-${server[1]}, from the PostgreSQL project's apt repository when Debian has none)`;
  } else if (/unsupported version .* in file header/.test(stderr)) {
    text += ". The backup was written by a newer pg_dump: restore it with pg_restore of that version or later";
  }
  return text;
}

function runTool(tool: Tool, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new BackupRefusal(MISSING_TOOL(tool)) : error));
    child.once("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else reject(new BackupRefusal(explainToolFailure(tool, Buffer.concat(err).toString())));
    });
  });
}

/** Refuses at once, before anything is touched, when the tool is not installed. */
export async function requireTool(tool: Tool): Promise<string> {
  return (await runTool(tool, ["--version"], {})).trim();
}

/** The whole database in pg_dump's custom format (uncompressed: the backup archive is gzipped as a whole). */
export async function pgDump(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await runTool("pg_dump", ["--format=custom", "--compress=0", "--no-owner", "--no-privileges", `--file=${file}`, `--dbname=${dbname}`], env);
}

/**
 * Replaces what the dump holds, in one transaction: on any error nothing changes. `--clean
 * --if-exists` drops each object of the dump before it is created again; `--no-owner` and
 * `--no-privileges` let another role than the one that made the backup restore it.
 */
export async function pgRestore(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  // Extensions (pg_trgm) are left out: where the site's role does not own the database a superuser
  // created them (docs/operations.md), and that role may neither drop nor comment on them. The
  // migrations create what is missing; the restored tables only need the extension to exist.
  const list = await runTool("pg_restore", ["--list", file], {});
  const kept = list
    .split("\n")
    .filter((line) => !/^\d+; \d+ \d+ (EXTENSION - |COMMENT - EXTENSION )/.test(line))
    .join("\n");
  const listFile = `${file}.list`;
  await writeFile(listFile, kept);
  try {
    await runTool("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", `--use-list=${listFile}`, `--dbname=${dbname}`, file], env);
  } finally {
    await rm(listFile, { force: true });
  }
}
