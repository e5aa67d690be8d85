// Tells the benchmark the first frame is on screen (two animation frames after load).
window.addEventListener("load", () =>
  requestAnimationFrame(() => requestAnimationFrame(() => window.__TAURI_INTERNALS__.invoke("painted"))));
