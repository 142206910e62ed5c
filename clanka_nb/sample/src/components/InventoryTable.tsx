import { useMemo, useState } from "react";

import { Book, StockItem, StockStatus, statusOf, worstStatus } from "../models";
import { formatPrice } from "../pricing";
import { StatusBadge } from "./BookCard";

/** Columns the back-office table can be sorted by. */
export type SortKey = "title" | "genre" | "onHand" | "price";

/** One table row: a book and its stock summed over every shelf. */
interface Row {
  book: Book;
  onHand: number;
  status: StockStatus;
  shelves: string[];
}

/** Props of the back-office inventory table. */
export interface InventoryTableProps {
  books: Book[];
  stock: StockItem[];
  /** Pre-selected genre filter; the user can change it. */
  initialGenre?: string;
  onSelect?: (isbn: string) => void;
}

/** Join books with their stock; titles with no stock items are shown as sold out. */
export function toRows(books: Book[], stock: StockItem[]): Row[] {
  return books.map((book) => {
    const items = stock.filter((item) => item.isbn === book.isbn);
    const onHand = items.reduce((sum, item) => sum + item.quantity, 0);
    return { book, onHand, status: worstStatus(items.map(statusOf)), shelves: items.map((item) => item.shelf) };
  });
}

/** Compare two rows by a column, ascending. */
const compareBy = (key: SortKey) => (a: Row, b: Row): number => {
  switch (key) {
    case "title":
      return a.book.title.localeCompare(b.book.title);
    case "genre":
      return a.book.genre.localeCompare(b.book.genre) || a.book.title.localeCompare(b.book.title);
    case "onHand":
      return a.onHand - b.onHand;
    case "price":
      return a.book.priceCents - b.book.priceCents;
  }
};

/** A clickable column header that shows the sort direction. */
function SortHeader(props: {
  label: string;
  column: SortKey;
  sort: SortKey;
  descending: boolean;
  onSort: (column: SortKey) => void;
}) {
  const arrow = props.sort === props.column ? (props.descending ? " ▼" : " ▲") : "";
  return (
    <th onClick={() => props.onSort(props.column)} aria-sort={arrow ? "other" : "none"}>
      {props.label}
      {arrow}
    </th>
  );
}

/**
 * The back-office table: every title with copies on hand, filterable by genre
 * and sortable by any column. Clicking a row selects the title.
 */
export function InventoryTable({ books, stock, initialGenre = "", onSelect }: InventoryTableProps) {
  const [genre, setGenre] = useState(initialGenre);
  const [sort, setSort] = useState<SortKey>("title");
  const [descending, setDescending] = useState(false);

  const genres = useMemo(() => [...new Set(books.map((book) => book.genre))].sort(), [books]);
  const rows = useMemo(() => {
    const all = toRows(books, stock).filter((row) => !genre || row.book.genre === genre);
    all.sort(compareBy(sort));
    return descending ? all.reverse() : all;
  }, [books, stock, genre, sort, descending]);

  const onSort = (column: SortKey) => {
    setDescending(column === sort ? !descending : false);
    setSort(column);
  };

  return (
    <section className="inventory">
      <label>
        Genre{" "}
        <select value={genre} onChange={(event) => setGenre(event.target.value)}>
          <option value="">All genres</option>
          {genres.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <table>
        <thead>
          <tr>
            <SortHeader label="Title" column="title" sort={sort} descending={descending} onSort={onSort} />
            <SortHeader label="Genre" column="genre" sort={sort} descending={descending} onSort={onSort} />
            <SortHeader label="On hand" column="onHand" sort={sort} descending={descending} onSort={onSort} />
            <SortHeader label="Price" column="price" sort={sort} descending={descending} onSort={onSort} />
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.book.isbn} onClick={() => onSelect?.(row.book.isbn)}>
              <td>{row.book.title}</td>
              <td>{row.book.genre}</td>
              <td title={row.shelves.join(", ")}>{row.onHand}</td>
              <td>{formatPrice(row.book.priceCents)}</td>
              <td>
                <StatusBadge status={row.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="count">{rows.length} titles</p>
    </section>
  );
}

export default InventoryTable;
