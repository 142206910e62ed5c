import { Book, StockStatus } from "../models";
import { formatPrice } from "../pricing";

/** Props of the card shown for each title in the shop-floor search. */
export interface BookCardProps {
  book: Book;
  status: StockStatus;
  /** Copies on hand over all shelves. */
  onHand: number;
  /** Called when a clerk taps "add to sale". */
  onAdd?: (book: Book) => void;
  compact?: boolean;
}

/** Label and colour of each stock status badge. */
const BADGES: Record<StockStatus, { label: string; color: string }> = {
  [StockStatus.InStock]: { label: "In stock", color: "green" },
  [StockStatus.Low]: { label: "Low", color: "orange" },
  [StockStatus.OutOfStock]: { label: "Sold out", color: "red" },
  [StockStatus.Discontinued]: { label: "Discontinued", color: "gray" },
};

/** A small coloured pill with the stock status. */
export const StatusBadge = ({ status }: { status: StockStatus }) => {
  const badge = BADGES[status];
  return (
    <span className="badge" style={{ backgroundColor: badge.color }}>
      {badge.label}
    </span>
  );
};

/** "A. Author, B. Author and C. Author" for the card's subtitle. */
export function authorLine(authors: string[]): string {
  if (authors.length <= 1) {
    return authors[0] ?? "Unknown author";
  }
  return `${authors.slice(0, -1).join(", ")} and ${authors[authors.length - 1]}`;
}

/** One title: cover placeholder, title, authors, price, stock badge and an add button. */
export function BookCard({ book, status, onHand, onAdd, compact = false }: BookCardProps) {
  const canSell = onHand > 0 && status !== StockStatus.Discontinued;
  return (
    <article className={compact ? "book-card compact" : "book-card"} data-isbn={book.isbn}>
      {!compact && <div className="cover" aria-hidden="true" />}
      <header>
        <h3>{book.title}</h3>
        <p className="authors">{authorLine(book.authors)}</p>
      </header>
      <footer>
        <strong>{formatPrice(book.priceCents)}</strong>
        <StatusBadge status={status} />
        {onAdd && (
          <button disabled={!canSell} onClick={() => onAdd(book)}>
            Add to sale
          </button>
        )}
      </footer>
    </article>
  );
}
