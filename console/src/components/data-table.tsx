/** A table on TanStack Table: headers that sort by keyboard or click, rows that may link somewhere. */
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useState } from 'preact/hooks';
import { navigate } from '../router';

declare module '@tanstack/react-table' {
  // Type parameters must match TanStack's own declaration to merge with it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Numbers align right. */
    right?: boolean;
  }
}

export interface DataTableProps<Row> {
  rows: Row[];
  columns: ColumnDef<Row, never>[];
  caption: string;
  /** Sorting done by the API (keyset paging), or in the page when absent. */
  sorting?: SortingState;
  onSortingChange?: OnChangeFn<SortingState>;
  /** Where a row leads when clicked; its first cell should hold a real link for the keyboard. */
  hrefOf?: (row: Row) => string;
  selected?: (row: Row) => boolean;
  rowTestId?: string;
}

const ARROWS = { asc: '↑', desc: '↓' } as const;

export function DataTable<Row>({ rows, columns, caption, sorting, onSortingChange, hrefOf, selected, rowTestId }: DataTableProps<Row>) {
  const [localSorting, setLocalSorting] = useState<SortingState>([]);
  const table = useReactTable<Row>({
    data: rows,
    columns,
    state: { sorting: sorting ?? localSorting },
    onSortingChange: onSortingChange ?? setLocalSorting,
    manualSorting: Boolean(onSortingChange),
    enableSortingRemoval: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return (
    <div class="table-wrap">
      <table class="data">
        <caption class="sr-only">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const right = header.column.columnDef.meta?.right;
                const content = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    class={right ? 'right' : undefined}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    scope="col"
                  >
                    {header.column.getCanSort() ? (
                      <button type="button" onClick={header.column.getToggleSortingHandler()}>
                        {content}
                        <span aria-hidden="true">{sorted ? ARROWS[sorted] : ''}</span>
                      </button>
                    ) : (
                      content
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-testid={rowTestId}
              class={selected?.(row.original) ? 'selected' : undefined}
              style={hrefOf ? { cursor: 'pointer' } : undefined}
              onClick={
                hrefOf
                  ? (event) => {
                      if ((event.target as HTMLElement).closest('a,button,input,select')) return;
                      navigate(hrefOf(row.original));
                    }
                  : undefined
              }
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} class={cell.column.columnDef.meta?.right ? 'right num' : undefined}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
