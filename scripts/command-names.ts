import type { CommandNames } from "#server/commands.ts";

/** How a checkout names the operator's commands in their usage lines. */
export const NPM_COMMAND_NAMES: CommandNames = { backup: "npm run db:backup", restore: "npm run db:restore", admin: "npm run admin --" };
