// Saving a file the core made (a calendar export, a backup): the browser's download of a Blob, in
// web-shell and in the desktop window alike (the app has no dialog plugin; the web view's download goes
// to the downloads folder). `save` is replaceable for tests.
export type SaveFile = (name: string, mediaType: string, text: string) => void;

export const saveFile: SaveFile = (name, mediaType, text) => {
  const url = URL.createObjectURL(new Blob([text], { type: mediaType || "application/octet-stream" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked once the download has surely started.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
};
