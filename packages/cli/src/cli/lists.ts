import { Option, type Command } from 'commander';
import type { PagedList } from '@earshot/sdk';
import { countArgument } from './arguments';
import { printNdjson, say } from './output';

export interface ListOptions {
  limit?: number;
  all?: boolean;
  cursor?: string;
  json?: boolean;
}

/** The options every list command takes. */
export function listOptions(command: Command, defaultLimit: number): Command {
  return command
    .addOption(new Option('--limit <n>', `items per page (the API's default is ${defaultLimit})`).argParser(countArgument))
    .option('--all', 'follow the pages to the end')
    .option('--cursor <cursor>', 'start at this page (from a previous list)')
    .option('--json', 'one JSON object per line (NDJSON), for scripts');
}

/** The paging part of a list's query. */
export const pageQuery = (options: ListOptions): { limit?: number; cursor?: string } => ({
  ...(options.limit === undefined ? {} : { limit: options.limit }),
  ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
});

/**
 * Prints a list: NDJSON as pages arrive with --json, else a table. Without
 * --all only the first page is read, and the way to the next is said on stderr.
 */
export async function showList<T>(list: PagedList<T>, options: ListOptions, render: (items: T[]) => string, nothing: string): Promise<void> {
  if (options.all) {
    if (options.json) {
      for await (const item of list) printNdjson(item);
      return;
    }
    const items = await list.toArray();
    say(items.length === 0 ? nothing : render(items));
    return;
  }
  const page = await list.firstPage();
  if (options.json) for (const item of page.items) printNdjson(item);
  else say(page.items.length === 0 ? nothing : render(page.items));
  if (page.nextCursor !== null && !options.json) process.stderr.write(`more: --cursor ${page.nextCursor}, or --all\n`);
}
