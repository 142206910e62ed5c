import { Book, Cents, Isbn, Sale, StockItem, StockStatus, isPhysical, statusOf } from "./models";
import { formatPrice, netOf } from "./pricing";

/** What the weekly stock report should contain. */
export interface ReportOptions {
  /** Only include these genres; all genres when empty. */
  genres: string[];
  /** Leave out titles that are discontinued and sold out. */
  hideDead: boolean;
  /** Days of sales that count as "recent" for the sell-through column. */
  recentDays: number;
  /** Separator for the CSV part; the bookkeeping tool wants ";". */
  separator: "," | ";";
}

/** One row of the report, before it is turned into text. */
export type ReportRow = {
  isbn: Isbn;
  title: string;
  genre: string;
  onHand: number;
  sold: number;
  status: StockStatus;
  stockValue: Cents;
};

/** The finished report: CSV for the bookkeeper and a short summary for the shop owner. */
export interface StockReport {
  csv: string;
  summary: string[];
  rows: ReportRow[];
}

/** Options used when the caller passes none. */
export const DEFAULT_REPORT_OPTIONS: ReportOptions = { genres: [], hideDead: true, recentDays: 7, separator: ";" };

/** Quote a CSV field when it holds the separator, a quote or a line break. */
const csvField = (value: string | number, separator: string): string => {
  const text = String(value);
  return /["\n]/.test(text) || text.includes(separator) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * Build the weekly stock report from the catalogue, the stock on the shelves and
 * recent sales: one CSV row per title, grouped by genre, with subtotals, then a
 * plain-text summary of what needs reordering and what is not selling.
 */
export function buildStockReport(
  books: Book[],
  stock: StockItem[],
  sales: Sale[],
  options: ReportOptions = DEFAULT_REPORT_OPTIONS,
  now: Date = new Date(),
): StockReport {
  const sep = options.separator;
  const since = new Date(now.getTime() - options.recentDays * 24 * 60 * 60 * 1000);

  // Copies on hand per title, over every shelf; the worst status wins.
  const onHand = new Map<Isbn, number>();
  const statuses = new Map<Isbn, StockStatus>();
  const severity = [StockStatus.InStock, StockStatus.Low, StockStatus.OutOfStock, StockStatus.Discontinued];
  for (const item of stock) {
    onHand.set(item.isbn, (onHand.get(item.isbn) ?? 0) + item.quantity);
    const status = statusOf(item);
    const previous = statuses.get(item.isbn);
    if (previous === undefined || severity.indexOf(status) > severity.indexOf(previous)) {
      statuses.set(item.isbn, status);
    }
  }

  // Copies sold per title in the recent window.
  const sold = new Map<Isbn, number>();
  const recent = sales.filter((sale) => sale.soldAt >= since && sale.soldAt <= now);
  for (const sale of recent) {
    for (const line of sale.lines) {
      sold.set(line.isbn, (sold.get(line.isbn) ?? 0) + line.quantity);
    }
  }

  // One row per physical title that passes the filters, grouped by genre.
  const byGenre = new Map<string, ReportRow[]>();
  for (const book of books) {
    if (!isPhysical(book.format) || (options.genres.length > 0 && !options.genres.includes(book.genre))) {
      continue;
    }
    const row: ReportRow = {
      isbn: book.isbn,
      title: book.title,
      genre: book.genre,
      onHand: onHand.get(book.isbn) ?? 0,
      sold: sold.get(book.isbn) ?? 0,
      status: statuses.get(book.isbn) ?? StockStatus.OutOfStock,
      stockValue: (onHand.get(book.isbn) ?? 0) * netOf(book.priceCents),
    };
    if (options.hideDead && row.status === StockStatus.Discontinued && row.onHand === 0) {
      continue;
    }
    byGenre.set(book.genre, [...(byGenre.get(book.genre) ?? []), row]);
  }

  // CSV: header, rows sorted by title within each genre, a subtotal line per genre.
  const lines = [["isbn", "title", "genre", "on_hand", "sold", "status", "value"].join(sep)];
  const rows: ReportRow[] = [];
  let grandTotal = 0;
  for (const genre of [...byGenre.keys()].sort()) {
    const group = (byGenre.get(genre) ?? []).sort((a, b) => a.title.localeCompare(b.title));
    let subtotal = 0;
    for (const row of group) {
      const fields = [row.isbn, row.title, row.genre, row.onHand, row.sold, row.status, formatPrice(row.stockValue)];
      lines.push(fields.map((field) => csvField(field, sep)).join(sep));
      subtotal += row.stockValue;
      rows.push(row);
    }
    lines.push(["", `subtotal ${genre}`, "", "", "", "", formatPrice(subtotal)].map((f) => csvField(f, sep)).join(sep));
    grandTotal += subtotal;
  }

  // Summary for humans: totals first, then what to act on.
  const reorder = rows.filter((row) => row.status === StockStatus.Low || row.status === StockStatus.OutOfStock);
  const slow = rows.filter((row) => row.onHand > 0 && row.sold === 0);
  const summary = [
    `Stock report for the ${options.recentDays} days to ${now.toISOString().slice(0, 10)}`,
    `${rows.length} titles in ${byGenre.size} genres, stock value ${formatPrice(grandTotal)} (net)`,
    reorder.length ? `Reorder: ${reorder.map((row) => row.title).join(", ")}` : "Nothing to reorder",
    slow.length ? `No sales this period: ${slow.length} titles` : "Every title on the shelves sold at least once",
  ];
  return { csv: lines.join("\n") + "\n", summary, rows };
}

/** The titles with the most copies sold, best first (ties broken by title). */
export function bestSellers(rows: ReportRow[], limit = 10): ReportRow[] {
  return [...rows].sort((a, b) => b.sold - a.sold || a.title.localeCompare(b.title)).slice(0, limit);
}
