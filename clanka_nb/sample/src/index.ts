/**
 * Shelfwise entry point: wires the ledger, pricing and reports together for the
 * till app and the back-office dashboard.
 */
import { Book, StockItem, appVersion } from "./models";
import { Inventory, StockLedger, WallShelf } from "./inventory";
import { buildStockReport, DEFAULT_REPORT_OPTIONS, StockReport } from "./reports";
import { suggestPrice } from "./pricing";

export * from "./models";
export { Inventory, StockLedger } from "./inventory";
export { applyDiscount, formatPrice, lineTotal, priceWithTax } from "./pricing";

/** Settings read from the shop's config file. */
export interface ShopConfig {
  shopName: string;
  /** Shelf lengths in metres, by shelf code. */
  shelves: Record<string, number>;
  weeklyReportDay: 0 | 1 | 2 | 3 | 4 | 5 | 6;
}

/** A running Shelfwise instance. */
export interface ShelfwiseApp {
  version: string;
  ledger: StockLedger;
  shelves: WallShelf[];
  report(books: Book[]): StockReport;
}

/** Throw a readable error when the config cannot work, before the till opens. */
function assertConfigured(config: ShopConfig): void {
  if (!config.shopName.trim()) {
    throw new Error("shopName is empty in the config file");
  }
  if (Object.keys(config.shelves).length === 0) {
    throw new Error("the config file lists no shelves");
  }
}

/** Build the app from its config and the stock counted at the last stock-take. */
export function createApp(config: ShopConfig, opening: StockItem[] = []): ShelfwiseApp {
  assertConfigured(config);
  const ledger = new StockLedger();
  for (const item of opening) {
    Inventory.receive(ledger, item.isbn, item.quantity);
    Inventory.putAway(ledger, item.isbn, item.shelf, item.quantity);
  }
  const shelves = Object.entries(config.shelves).map(
    ([code, metres]) => new WallShelf(code as `${string}-${number}`, metres),
  );
  return {
    version: appVersion(),
    ledger,
    shelves,
    report: (books) => buildStockReport(books, ledger.all(), [], DEFAULT_REPORT_OPTIONS),
  };
}

/** Handy for the price-label printer: the suggested price for a supplier's cost. */
export const labelPrice = (costCents: number): number => suggestPrice(costCents);

// Fail fast when the bundle was built without a version, rather than at the first receipt.
if (appVersion() === "") {
  throw new Error("Shelfwise was built without __SHELFWISE_VERSION__");
}
