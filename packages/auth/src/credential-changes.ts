let changesHere = 0;

/**
 * Noted by this process after it revokes, rotates or suspends: its own key
 * caches read the shared change counter on their next use instead of
 * waiting for their interval, so a change made here applies here at once.
 */
export function noteCredentialChange(): void {
  changesHere += 1;
}

export function credentialChangesHere(): number {
  return changesHere;
}
