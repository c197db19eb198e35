import type { TestProject } from "vitest/node";
import { startServer } from "../support/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** One built server with a fresh database for the whole browser suite; tests make their own users. */
export default async function setup(project: TestProject) {
  const server = await startServer({ ADMIN_EMAILS: "admin-e2e@example.com,admin2-e2e@example.com" });
  project.provide("baseUrl", server.url);
  project.provide("dataDir", server.dataDir);
  return async () => {
    await server.stop();
  };
}
