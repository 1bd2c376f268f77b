let generation = 0;

/** Noted by this process when it rotates, disables or deletes a connection: its caches look connections up again at once. */
export function noteConnectionChange(): void {
  generation += 1;
}

/** How many changes this process has made; a kept connection from an older generation is looked up again. */
export function connectionGeneration(): number {
  return generation;
}
