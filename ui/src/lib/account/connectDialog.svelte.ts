// Whether the "Connect ContentHero" dialog is open: one dialog for the app, opened from the practice
// note, Settings, or the header's profile menu.
export const connectDialog = $state({ open: false });

export function openConnect() {
  connectDialog.open = true;
}
