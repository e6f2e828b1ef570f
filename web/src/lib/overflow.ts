/** The first `max` items, and how many more there are (the '+N'). */
export function splitOverflow<T>(items: readonly T[], max: number): { visible: T[]; hiddenCount: number } {
  const limit = Math.max(0, Math.floor(max));
  return { visible: items.slice(0, limit), hiddenCount: Math.max(0, items.length - limit) };
}

/** 'Ada, Ben, Cy +2': up to `max` names, then the count of the others. */
export function summarizeNames(names: readonly string[], max: number): string {
  const { visible, hiddenCount } = splitOverflow(names, max);
  const shown = visible.join(', ');
  return hiddenCount > 0 ? `${shown} +${hiddenCount}` : shown;
}
