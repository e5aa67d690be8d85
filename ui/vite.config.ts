import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// Relative asset paths: the same build is served by Tauri's custom protocol and by web-shell.
export default defineConfig({
  base: "./",
  plugins: [svelte()],
  clearScreen: false,
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, sourcemap: false },
  // `npm run dev` with CONTENTDESK_WEB_SHELL=http://127.0.0.1:<port> (a running web-shell) sends the
  // commands there; open the dev page with that run's `?token=`.
  server: {
    port: 5173,
    strictPort: true,
    proxy: process.env.CONTENTDESK_WEB_SHELL ? { "/ipc": process.env.CONTENTDESK_WEB_SHELL } : undefined,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts"],
    setupFiles: ["src/test-setup.ts"],
  },
  // Svelte's browser build in the jsdom tests (its default export condition is the server build).
  resolve: { conditions: ["browser"] },
});
