import { registerFeatureLinks } from "#app/registrations.server.ts";

// The integration suite calls services without the server's start-up: register the features'
// links (sitemap sources, related-block lookups) as server/app.ts does before it listens.
registerFeatureLinks();
