import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import type { Plugin } from "vite";

/** index.html starts src/boot.ts, which imports the app (src/main.ts) once it has sent the start's first
 *  commands: the app's script, the scripts it imports and its styles are named in index.html too, so the
 *  browser fetches them beside boot's instead of after it. */
function preloadApp(): Plugin {
  return {
    name: "contentdesk-preload-app",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === "chunk");
        const app = chunks.find((c) => c.isDynamicEntry && c.moduleIds.some((id) => id.endsWith("/src/main.ts")));
        if (!app) throw new Error("preload-app: no chunk for src/main.ts (is it still imported by src/boot.ts?)");
        const href = (file: string) => `./${file}`;
        return [
          ...[app.fileName, ...app.imports.filter((f) => !chunks.find((c) => c.fileName === f)?.isEntry)].map((f) => ({ tag: "link", attrs: { rel: "modulepreload", crossorigin: true, href: href(f) }, injectTo: "head" as const })),
          ...[...(app.viteMetadata?.importedCss ?? [])].map((f) => ({ tag: "link", attrs: { rel: "stylesheet", crossorigin: true, href: href(f) }, injectTo: "head" as const })),
        ];
      },
    },
  };
}

// Relative asset paths: the same build is served by Tauri's custom protocol and by web-shell.
export default defineConfig({
  base: "./",
  plugins: [svelte(), preloadApp()],
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
    // How long a test may wait before it counts as failed, not a speed goal (no timings in tests): the
    // default 5 s was reached by page-opening tests on a loaded 2-core machine.
    testTimeout: 20_000,
  },
  // Svelte's browser build in the jsdom tests (its default export condition is the server build).
  resolve: { conditions: ["browser"] },
});
