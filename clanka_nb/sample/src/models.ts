/**
 * Core data model of Shelfwise: books, stock on shelves, suppliers and sales.
 *
 * Everything here is plain data. Behaviour lives in inventory.ts, pricing.ts
 * and reports.ts, which all import their types from this file.
 */

/** Version string injected by the bundler at build time. */
declare const __SHELFWISE_VERSION__: string;

/** An ISBN-13 without hyphens, e.g. "9780141439518". */
export type Isbn = string;

/** Money is always an integer number of cents, never a float. */
export type Cents = number;

/** Where a copy sits in the shop: an aisle letter code and a shelf number, e.g. "FIC-3". */
export type ShelfCode = `${string}-${number}`;

/** The physical (or not) form a title is sold in. */
export enum BookFormat {
  Hardcover = "hardcover",
  Paperback = "paperback",
  Audiobook = "audiobook",
  Ebook = "ebook",
}

/** How healthy the stock of one title is, as shown on the dashboard. */
export enum StockStatus {
  InStock = "in-stock",
  Low = "low",
  OutOfStock = "out-of-stock",
  Discontinued = "discontinued",
}

/** One title in the catalogue. Several stock items may point at the same book. */
export interface Book {
  isbn: Isbn;
  title: string;
  authors: string[];
  format: BookFormat;
  genre: string;
  /** Shelf price, tax included. */
  priceCents: Cents;
  /** What we pay the supplier per copy, tax excluded. */
  costCents: Cents;
  supplierId: string;
  publishedYear?: number;
}

/** Copies of one book on one shelf. */
export interface StockItem {
  isbn: Isbn;
  shelf: ShelfCode;
  quantity: number;
  /** Order more when the quantity drops to this level or below. */
  reorderLevel: number;
  discontinued: boolean;
}

/** A distributor or publisher we order from. */
export interface Supplier {
  id: string;
  name: string;
  email: string;
  leadTimeDays: number;
  minimumOrderCents: Cents;
}

/** One line of a till receipt. */
export interface SaleLine {
  isbn: Isbn;
  quantity: number;
  unitPriceCents: Cents;
  discountPercent: number;
}

/** A completed sale at the till. */
export interface Sale {
  id: string;
  soldAt: Date;
  lines: SaleLine[];
  paidWith: "cash" | "card" | "gift-card";
}

/** Everything that can change the number of copies on a shelf. */
export type StockEvent =
  | { kind: "received"; isbn: Isbn; shelf: ShelfCode; quantity: number; at: Date }
  | { kind: "sold"; isbn: Isbn; shelf: ShelfCode; quantity: number; at: Date; saleId: string }
  | { kind: "moved"; isbn: Isbn; from: ShelfCode; to: ShelfCode; quantity: number; at: Date }
  | { kind: "written-off"; isbn: Isbn; shelf: ShelfCode; quantity: number; at: Date; reason: string };

/** Reorder level given to new stock items unless the buyer picks another. */
export const DEFAULT_REORDER_LEVEL = 2;

/** The shop trades in one currency only. */
export const CURRENCY = "EUR";

/** Lowest acceptable margin, and the deepest discount a clerk may give without a manager. */
export const MIN_MARGIN = 0.25,
  MAX_CLERK_DISCOUNT = 0.4;

/** Formats that take up shelf space and can be counted in a stock-take. */
export const PHYSICAL_FORMATS: readonly BookFormat[] = [BookFormat.Hardcover, BookFormat.Paperback];

/** True when copies of this format sit on a shelf. */
export const isPhysical = (format: BookFormat): boolean => PHYSICAL_FORMATS.includes(format);

/** The status badge for a stock item, from its quantity and reorder level. */
export function statusOf(item: StockItem): StockStatus {
  if (item.discontinued) {
    return StockStatus.Discontinued;
  }
  if (item.quantity <= 0) {
    return StockStatus.OutOfStock;
  }
  return item.quantity <= item.reorderLevel ? StockStatus.Low : StockStatus.InStock;
}

/** Statuses from best to worst. */
const SEVERITY = [StockStatus.InStock, StockStatus.Low, StockStatus.OutOfStock, StockStatus.Discontinued];

/** The worst of the statuses of one title's shelves; out of stock when it is on no shelf. */
export function worstStatus(statuses: StockStatus[]): StockStatus {
  if (statuses.length === 0) {
    return StockStatus.OutOfStock;
  }
  return statuses.reduce((worst, s) => (SEVERITY.indexOf(s) > SEVERITY.indexOf(worst) ? s : worst));
}

/** The build's version, or "dev" when running from source without the bundler. */
export function appVersion(): string {
  return typeof __SHELFWISE_VERSION__ === "string" ? __SHELFWISE_VERSION__ : "dev";
}
