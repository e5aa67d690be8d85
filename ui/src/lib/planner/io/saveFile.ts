// Saving a file the core made (a calendar export, a backup). In the desktop window the shell writes it
// into the downloads folder (`save_download`: a new name when one is taken) and answers where, which the UI
// says; WebKitGTK's own download of a Blob would land in the process's working folder, unnamed. In a
// browser (web-shell) it is the browser's download of a Blob, to wherever the browser puts downloads.
import { call, isTauri } from "../../shared/backend";

/** Saves the file; answers where it went (the full path in the desktop window, the file's name in a browser). */
export type SaveFile = (name: string, mediaType: string, text: string) => Promise<string>;

export const saveFile: SaveFile = async (name, mediaType, text) => {
  if (isTauri()) return call<string>("save_download", { fileName: name, text });
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
  return name;
};
