// Receipt formatting for the thermal printer at the till (42 characters a line).
// An ES module, unlike its neighbour isbn.js, because the printer driver is one.

const WIDTH = 42;

/** Euro amount with a comma, the way the printer's font expects: 1299 -> "12,99". */
export function euros(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
}

/** Left text and right text on one line, padded with spaces to the paper width. */
export function row(left, right) {
  const room = WIDTH - right.length - 1;
  const cut = left.length > room ? left.slice(0, room - 1) + "…" : left;
  return cut.padEnd(WIDTH - right.length) + right;
}

/** A line of dashes. */
export const rule = () => "-".repeat(WIDTH);

/** Centre a line of text on the paper. */
export function centre(text) {
  const pad = Math.max(0, Math.floor((WIDTH - text.length) / 2));
  return " ".repeat(pad) + text;
}

/**
 * The full receipt text for a sale. `titles` maps ISBNs to book titles;
 * unknown ISBNs are printed as they are.
 */
export function receiptText(shopName, sale, titles) {
  const out = [centre(shopName), centre(sale.soldAt.toISOString().slice(0, 16).replace("T", " ")), rule()];
  let total = 0;
  for (const line of sale.lines) {
    const gross = line.unitPriceCents * line.quantity;
    const net = Math.round(gross * (1 - line.discountPercent / 100));
    total += net;
    out.push(row(`${line.quantity} x ${titles[line.isbn] ?? line.isbn}`, euros(net)));
    if (line.discountPercent > 0) {
      out.push(row(`   discount ${line.discountPercent}%`, euros(net - gross)));
    }
  }
  out.push(rule(), row("TOTAL", euros(total)), row(`Paid by ${sale.paidWith}`, ""), "", centre("Thank you!"));
  return out.join("\n");
}

export default receiptText;
