/** A full page load at `path`: drops every bit of in-memory state. */
export function reloadAt(path: string): void {
  window.location.assign(path);
}
