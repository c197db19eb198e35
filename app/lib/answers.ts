import { z } from "./zod";

/**
 * Answer schemas for records the route module already types (lib/send.ts reads answers through
 * them). Apart from send.ts so that a page sending without reading an answer does not carry zod.
 */
/** An answer that is a record (an object), taken as the type the route module declares. */
export function record<T extends object>() {
  return z.custom<T>((value) => typeof value === "object" && value !== null && !Array.isArray(value));
}

/** An answer that is a record with a string `id` (a saved row the server describes in full). */
export function recordWithId<T extends { id: string }>() {
  return z.custom<T>((value) => typeof value === "object" && value !== null && "id" in value && typeof value.id === "string");
}
