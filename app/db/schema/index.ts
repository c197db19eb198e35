// The one place drizzle-kit and the database client read the whole schema from.
export * from "./articles";
export * from "./cards";
export * from "./chat";
export * from "./decks";
export * from "./delivery";
export * from "./content";
export * from "./trades";
export * from "./users";
export * from "./content-refs";
export * from "./analytics";
export * from "./trade-rules";
export * from "./notifications";
export * from "./push";
export * from "./collection";
export * from "./friends";
