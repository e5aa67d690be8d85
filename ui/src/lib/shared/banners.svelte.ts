// Banners the user dismissed in this run (kept in memory: a cause that remains shows again next start).
class Banners {
  dismissed = $state(new Set<string>());
  dismiss(id: string) {
    this.dismissed = new Set(this.dismissed).add(id);
  }
}
export const banners = new Banners();
