import { expect, it } from "vitest";
import { keyringWords } from "./keyringWords";

// The texts as the core writes them (crates/core/src/secrets.rs `SecretError::user_message`).
const UNAVAILABLE = "No keyring is reachable, so API keys are kept in memory for this run only (DBus error: Unable to autolaunch a dbus-daemon without a $DISPLAY for X11). On Linux, install and start a Secret Service provider (GNOME Keyring: package gnome-keyring; or KeePassXC with its Secret Service integration) in your desktop session, then restart Content Desk.";
const LOCKED = "The keyring is locked or has no login keyring yet (No result found). Create or unlock your login keyring (for example by logging in again, or with Seahorse / “Passwords and Keys”), then try again.";

it("no keyring: a plain sentence, the advice without the raw cause, the cause kept as detail", () => {
  const w = keyringWords(UNAVAILABLE);
  expect(w.short).toBe("The system keyring is not available, so keys are kept in memory until you quit.");
  expect(w.advice).toMatch(/^On Linux, install and start a Secret Service provider \(GNOME Keyring/);
  expect(w.advice).not.toMatch(/DBus/i);
  expect(w.short).not.toMatch(/DBus/i);
  expect(w.detail).toBe("DBus error: Unable to autolaunch a dbus-daemon without a $DISPLAY for X11");
});

it("a locked keyring and an unknown failure are said plainly too", () => {
  const w = keyringWords(LOCKED);
  expect(w.short).toBe("The system keyring is locked, so keys are kept in memory until you quit.");
  expect(w.advice).toMatch(/^Create or unlock your login keyring/);
  expect(w.detail).toBe("No result found");
  const other = keyringWords("The keyring failed: dbus went away. Try again, or restart Content Desk.");
  expect(other.short).toMatch(/did not answer/);
  expect(other.detail).toBe("dbus went away");
  expect(keyringWords(null).short).toMatch(/kept in memory until you quit/);
});
