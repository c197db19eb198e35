import { describe, expect, it } from "vitest";
import { explainToolFailure } from "./postgres-tools.server";

describe("what a failed pg_dump or pg_restore tells the operator", () => {
  it("a client older than the server: which client to install", () => {
    const stderr = "pg_dump: error: aborting because of server version mismatch\npg_dump: detail: server version: 17.2; pg_dump version: 15.20 (Debian 15.20-0+deb12u1)\n";
    expect(explainToolFailure("pg_dump", stderr)).toBe(
      "pg_dump failed: pg_dump: error: aborting because of server version mismatch / pg_dump: detail: server version: 17.2; pg_dump version: 15.20 (Debian 15.20-0+deb12u1)." +
        " pg_dump must be at least the server's major version (17): install postgresql-client-17 (Debian: apt-get install postgresql-client-17, from the PostgreSQL project's apt repository when Debian has none)",
    );
  });

  it("a dump from a newer pg_dump", () => {
    expect(explainToolFailure("pg_restore", "pg_restore: error: unsupported version (1.16) in file header\n")).toMatch(/written by a newer pg_dump: restore it with pg_restore of that version or later$/);
  });

  it("anything else: the tool's last lines", () => {
    expect(explainToolFailure("pg_dump", 'pg_dump: error: connection to server failed: FATAL:  database "x" does not exist\n')).toBe(
      'pg_dump failed: pg_dump: error: connection to server failed: FATAL:  database "x" does not exist',
    );
  });
});
