/** The last non-empty lines of a text (a server's log, a command's output), joined into one line for an error message. */
export function lastLines(text: string, count = 3): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-count)
    .join(' | ');
}
