import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// The SSR bundle's entry is our Express app (server/app.ts), which imports the
// React Router server build; so routes, services and the socket handlers share
// one module graph and one database connection.
export default defineConfig(({ isSsrBuild }) => ({
  build: {
    target: "es2022",
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
  },
  plugins: [tailwindcss(), reactRouter()],
}));
