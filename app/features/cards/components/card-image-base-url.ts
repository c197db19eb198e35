import { createContext } from "react";

/**
 * CARD_IMAGE_BASE_URL as the root layout hands it down (null when the operator set none). Its own
 * module, so the layout of every page does not carry the card picture's code and catalogue.
 */
export const CardImageBaseUrlContext = createContext<string | null>(null);
