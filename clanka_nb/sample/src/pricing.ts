import { Book, Cents, MAX_CLERK_DISCOUNT, MIN_MARGIN, SaleLine } from "./models";

/** Reduced VAT rate for printed books. */
export const VAT_RATE = 0.06;

/** Standard VAT rate, which ebooks and audiobooks still pay in some countries. */
export const VAT_RATE_DIGITAL = 0.21;

/** Prices end in .99 or .49; this is the list of allowed endings in cents. */
const PRICE_ENDINGS = [99, 49];

namespace Rounding {
  /** Round half away from zero, to whole cents. */
  export const toCents = (amount: number): Cents => Math.sign(amount) * Math.round(Math.abs(amount));
}

/** Shelf price of a net amount, with VAT added and rounded to whole cents. */
export const priceWithTax = (net: Cents, rate: number = VAT_RATE): Cents => Rounding.toCents(net * (1 + rate));

/** The net amount inside a shelf price (the inverse of priceWithTax). */
export const netOf = (gross: Cents, rate: number = VAT_RATE): Cents => Rounding.toCents(gross / (1 + rate));

/** Format cents as a euro amount for labels, e.g. 1299 -> "€12.99". */
export const formatPrice = (cents: Cents): string => `€${(cents / 100).toFixed(2)}`;

/**
 * Apply a percentage discount to a price.
 * Discounts above what a clerk may give are refused, not capped, so the till can ask for a manager.
 */
function applyDiscount(price: Cents, percent: number): Cents {
  if (percent < 0 || percent > 100) {
    throw new RangeError(`discount must be between 0 and 100, got ${percent}`);
  }
  if (percent / 100 > MAX_CLERK_DISCOUNT) {
    throw new Error(`a ${percent}% discount needs a manager`);
  }
  return Rounding.toCents(price * (1 - percent / 100));
}

/** Gross margin of a book at its shelf price, as a fraction of the net price. */
function marginOf(book: Book, rate: number = VAT_RATE): number {
  const net = netOf(book.priceCents, rate);
  return net === 0 ? 0 : (net - book.costCents) / net;
}

/** True when selling at this price keeps the shop's minimum margin. */
export function keepsMinimumMargin(book: Book, price: Cents): boolean {
  return marginOf({ ...book, priceCents: price }) >= MIN_MARGIN;
}

/**
 * Snap a computed price up to the nearest "nice" shelf price (x.49 or x.99),
 * because nobody prints labels that say €13.17.
 */
export function charmPrice(price: Cents): Cents {
  const euros = Math.floor(price / 100);
  for (const ending of PRICE_ENDINGS.slice().sort((a, b) => a - b)) {
    const candidate = euros * 100 + ending;
    if (candidate >= price) {
      return candidate;
    }
  }
  return (euros + 1) * 100 + Math.min(...PRICE_ENDINGS);
}

/** Suggested shelf price for a cost, at a target margin, VAT included and charm-rounded. */
export function suggestPrice(cost: Cents, targetMargin = 0.4, rate = VAT_RATE): Cents {
  const net = cost / (1 - targetMargin);
  return charmPrice(priceWithTax(Rounding.toCents(net), rate));
}

/** Total of a receipt line after its discount, VAT included. */
export const lineTotal = (line: SaleLine): Cents =>
  applyDiscount(line.unitPriceCents, line.discountPercent) * line.quantity;

/**
 * Price bands used by the "under €10 / under €20 / …" table in the shop window.
 * Yields [low, high) pairs in cents until `max` is covered.
 */
export function* priceBands(step: Cents = 1000, max: Cents = 5000): Generator<[Cents, Cents]> {
  for (let low = 0; low < max; low += step) {
    yield [low, low + step];
  }
}

// Exported at the bottom so the till and the reports share one implementation.
export { applyDiscount, marginOf };
