import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// The SSR bundle's entry is our Express app (server/app.ts), which imports the
// React Router server build; so routes, services and the socket handlers share
// one module graph and one database connection.
// (React Router's Vite Environment API flag builds each environment from its own options.)
export default defineConfig({
  build: { target: "es2022" },
  environments: {
    ssr: { build: { target: "es2022", rollupOptions: { input: "./server/app.ts" } } },
  },
  plugins: [tailwindcss(), reactRouter()],
});
