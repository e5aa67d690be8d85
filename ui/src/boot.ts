// The page's first script, kept small (no Svelte): it asks the core for what the planner's first
// paint waits on (startEarly.ts) and only then loads the app (main.ts), whose script and styles
// index.html already fetches beside this one (modulepreload, vite.config.ts). The board's request is
// out while the app's script loads and starts. The same in the desktop window (Tauri IPC) and in a
// browser (web-shell).
import { askPlannerEarly } from "./lib/planner/startEarly";
import { applyTheme, recallTheme } from "./lib/shared/theme";

applyTheme(recallTheme());
askPlannerEarly(window.location.hash);

import("./main").catch(() => {
  const app = document.getElementById("app");
  if (app) app.textContent = "Content Desk could not load its script. Reload the page; if it keeps happening, rebuild the UI (npm run build) or reinstall the app.";
});
