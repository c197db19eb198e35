import type { TestProject } from "vitest/node";
import { startServer } from "#tests/support/server.ts";
import { E2E_ADMINS } from "#tests/support/e2e-admins.ts";
import { signUpVerified } from "#tests/support/verified-account.ts";


declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** One built server with a fresh database for the whole browser suite; tests make their own users. */
export default async function setup(project: TestProject) {
  const server = await startServer({ ADMIN_EMAILS: E2E_ADMINS.map((a) => a.email).join(",") });
  // An address on ADMIN_EMAILS makes an administrator only once verified.
  for (const admin of E2E_ADMINS) await signUpVerified(server, admin);
  project.provide("baseUrl", server.url);
  project.provide("dataDir", server.dataDir);
  return async () => {
    await server.stop();
  };
}
