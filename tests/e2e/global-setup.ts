import type { TestProject } from "vitest/node";
import { startServer } from "../support/server";
import { signUpVerified } from "../support/verified-account";

/** The suite's administrators: on ADMIN_EMAILS, signed up and verified here, signed in by the tests. */
const ADMINS = [
  { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" },
  { email: "admin2-e2e@example.com", password: "admin2-e2e-password", name: "管理者2" },
];

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** One built server with a fresh database for the whole browser suite; tests make their own users. */
export default async function setup(project: TestProject) {
  const server = await startServer({ ADMIN_EMAILS: ADMINS.map((a) => a.email).join(",") });
  // An address on ADMIN_EMAILS makes an administrator only once verified.
  for (const admin of ADMINS) await signUpVerified(server, admin);
  project.provide("baseUrl", server.url);
  project.provide("dataDir", server.dataDir);
  return async () => {
    await server.stop();
  };
}
