/** Where Better Auth's /verify-email sends the browser after a sign-up or re-sent verification link. */
export const VERIFIED_CALLBACK = "/profile/account?verified=1";
