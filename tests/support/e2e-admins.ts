import type { BrowserContext } from "playwright-core";

/** The browser suite's administrators: on ADMIN_EMAILS, signed up and verified by tests/e2e/global-setup.ts. */
export const E2E_ADMINS = [
  { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" },
  { email: "admin2-e2e@example.com", password: "admin2-e2e-password", name: "管理者2" },
] as const;

export const E2E_ADMIN = E2E_ADMINS[0];

/** Signs the context in as one of the suite's administrators through the auth API. */
export async function signInAdmin(context: BrowserContext, baseUrl: string, admin: (typeof E2E_ADMINS)[number] = E2E_ADMIN): Promise<void> {
  const answer = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: { email: admin.email, password: admin.password }, headers: { origin: baseUrl } });
  if (!answer.ok()) throw new Error(`the administrator ${admin.email} could not sign in: ${answer.status()} ${await answer.text()}`);
}
