// Containment of JSON values with the semantics of PostgreSQL's jsonb `@>` (below the top
// level), so the memory store filters metadata exactly as the PostgreSQL store does.

export function jsonContains(container: unknown, contained: unknown): boolean {
  if (Array.isArray(contained)) {
    return Array.isArray(container) && contained.every((want) => container.some((have) => jsonContains(have, want)));
  }
  if (typeof contained === 'object' && contained !== null) {
    if (typeof container !== 'object' || container === null || Array.isArray(container)) return false;
    const have = container as Record<string, unknown>;
    return Object.entries(contained).every(([key, want]) => Object.hasOwn(have, key) && jsonContains(have[key], want));
  }
  return container === contained;
}
