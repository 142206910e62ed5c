// Stock on shelves: the ledger that records every movement, shelf kinds, and
// the stock-take (audit) helpers. Nothing here talks to the network.
import {
  BookFormat,
  Cents,
  DEFAULT_REORDER_LEVEL,
  Isbn,
  ShelfCode,
  StockEvent,
  StockItem,
  isPhysical,
} from "./models";

/** A place copies can be put. Concrete shelves decide how many fit. */
export abstract class Shelf {
  constructor(readonly code: ShelfCode) {}

  /** How many copies fit on this shelf. */
  abstract capacity(): number;

  /** True when `quantity` more copies would still fit next to `current`. */
  fits(current: number, quantity: number): boolean {
    return current + quantity <= this.capacity();
  }
}

/** An ordinary wall shelf: thirty spine-out copies per metre. */
export class WallShelf extends Shelf {
  constructor(code: ShelfCode, private readonly metres: number) {
    super(code);
  }

  capacity(): number {
    return Math.floor(this.metres * 30);
  }
}

/**
 * The stock ledger: current quantities per (book, shelf), plus the event log
 * that produced them. Quantities are only ever changed through `apply`.
 */
export class StockLedger {
  private readonly items = new Map<string, StockItem>();
  private readonly log: StockEvent[] = [];

  /** Key of one stock item in the map. */
  private static key(isbn: Isbn, shelf: ShelfCode): string {
    return `${isbn}@${shelf}`;
  }

  /**
   * Record one event and update the quantities it touches.
   * Throws when a sale or write-off would take a shelf below zero.
   */
  apply(event: StockEvent): void {
    if (event.kind === "moved") {
      this.adjust(event.isbn, event.from, -event.quantity);
      this.adjust(event.isbn, event.to, event.quantity);
    } else {
      const sign = event.kind === "received" ? 1 : -1;
      this.adjust(event.isbn, event.shelf, sign * event.quantity);
    }
    this.log.push(event);
  }

  find(isbn: Isbn): StockItem[];
  find(isbn: Isbn, shelf: ShelfCode): StockItem | undefined;
  /** All stock items of a book, or the one on a given shelf. */
  find(isbn: Isbn, shelf?: ShelfCode): StockItem[] | StockItem | undefined {
    if (shelf !== undefined) {
      return this.items.get(StockLedger.key(isbn, shelf));
    }
    return [...this.items.values()].filter((item) => item.isbn === isbn);
  }

  /** Total copies of a book across every shelf. */
  totalOf(isbn: Isbn): number {
    return this.find(isbn).reduce((sum, item) => sum + item.quantity, 0);
  }

  /** Every stock item, in no particular order. */
  all(): StockItem[] {
    return [...this.items.values()];
  }

  /** The events applied so far, oldest first. */
  history(): readonly StockEvent[] {
    return this.log;
  }

  private adjust(isbn: Isbn, shelf: ShelfCode, delta: number): void {
    const key = StockLedger.key(isbn, shelf);
    const item = this.items.get(key) ?? {
      isbn,
      shelf,
      quantity: 0,
      reorderLevel: DEFAULT_REORDER_LEVEL,
      discontinued: false,
    };
    if (item.quantity + delta < 0) {
      throw new Error(`not enough copies of ${isbn} on ${shelf} (have ${item.quantity}, need ${-delta})`);
    }
    this.items.set(key, { ...item, quantity: item.quantity + delta });
  }
}

// ----- Day-to-day stock work ----------------------------------------------

/** Helpers for day-to-day stock work, so call sites read `Inventory.receive(...)`. */
export namespace Inventory {
  /** Where deliveries wait until someone puts them away. */
  export const RECEIVING_SHELF: ShelfCode = "RCV-0";

  /** Book a delivery onto the receiving shelf. */
  export function receive(ledger: StockLedger, isbn: Isbn, quantity: number): void {
    ledger.apply({ kind: "received", isbn, shelf: RECEIVING_SHELF, quantity, at: new Date() });
  }

  /** Move copies from the receiving shelf to their place on the shop floor. */
  export const putAway = (ledger: StockLedger, isbn: Isbn, to: ShelfCode, quantity: number): void =>
    ledger.apply({ kind: "moved", isbn, from: RECEIVING_SHELF, to, quantity, at: new Date() });

  /** Counting what is really on the shelves and comparing it with the ledger. */
  export namespace Audit {
    /** One shelf where the count and the ledger disagree. */
    export interface Discrepancy {
      isbn: Isbn;
      shelf: ShelfCode;
      expected: number;
      counted: number;
    }

    /** A stock-take in progress: counts are added shelf by shelf, then compared. */
    export class AuditSession {
      private readonly counts = new Map<string, number>();

      constructor(private readonly ledger: StockLedger) {}

      /** Record how many copies of a book someone counted on a shelf. */
      count(isbn: Isbn, shelf: ShelfCode, quantity: number): void {
        this.counts.set(`${isbn}@${shelf}`, quantity);
      }

      /** Every counted shelf whose number differs from the ledger. */
      discrepancies(): Discrepancy[] {
        return compare(this.ledger.all(), this.counts);
      }
    }

    /** Compare ledger items with counts keyed "isbn@shelf"; uncounted shelves are skipped. */
    export function compare(items: StockItem[], counts: Map<string, number>): Discrepancy[] {
      const out: Discrepancy[] = [];
      for (const item of items) {
        const counted = counts.get(`${item.isbn}@${item.shelf}`);
        if (counted !== undefined && counted !== item.quantity) {
          out.push({ isbn: item.isbn, shelf: item.shelf, expected: item.quantity, counted });
        }
      }
      return out;
    }
  }
}

/**
 * Value of the copies an audit found missing, at shelf price (tax included),
 * which is how the accountant books shrinkage. Surplus copies count as zero.
 */
export function shrinkageValue(found: Inventory.Audit.Discrepancy[], priceOf: (isbn: Isbn) => Cents): Cents {
  return found.reduce((sum, d) => sum + Math.max(0, d.expected - d.counted) * priceOf(d.isbn), 0);
}

/** Whether a book's stock can be counted at all (ebooks and audiobooks cannot). */
export function isCountable(format: BookFormat): boolean {
  return isPhysical(format);
}
