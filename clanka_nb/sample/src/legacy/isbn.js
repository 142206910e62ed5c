/**
 * ISBN helpers from the first version of Shelfwise, still used by the barcode
 * scanner service. CommonJS on purpose: the scanner runs on an old Node.
 */
"use strict";

const { createHash } = require("crypto");
const EventEmitter = require("events");

/** Characters allowed in an ISBN as people type it (digits, X, hyphens, spaces). */
var ISBN_INPUT = /^[0-9Xx\- ]+$/;

/** ISBN-13s of books start with one of these prefixes ("Bookland"). */
const BOOKLAND_PREFIXES = ["978", "979"];

/**
 * Strip hyphens and spaces, upper-case a trailing x.
 * Returns null when the input holds anything else.
 */
function normalizeIsbn(input) {
  if (typeof input !== "string" || !ISBN_INPUT.test(input)) {
    return null;
  }
  return input.replace(/[- ]/g, "").toUpperCase();
}

/** Check digit of the first 12 digits of an ISBN-13 (weights 1, 3, 1, 3, ...). */
function checkDigit13(first12) {
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  }
  return String((10 - (sum % 10)) % 10);
}

/** Check character of the first 9 digits of an ISBN-10 (may be "X" for 10). */
function checkDigit10(first9) {
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    sum += Number(first9[i]) * (10 - i);
  }
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? "X" : String(check);
}

/** Convert an old ISBN-10 to its ISBN-13, or return null when it is not valid. */
function isbn10To13(isbn10) {
  const isbn = normalizeIsbn(isbn10);
  if (!isbn || isbn.length !== 10 || checkDigit10(isbn.slice(0, 9)) !== isbn[9]) {
    return null;
  }
  const first12 = "978" + isbn.slice(0, 9);
  return first12 + checkDigit13(first12);
}

/** True for a well-formed ISBN-13 of a book, with a correct check digit. */
function isValidIsbn13(input) {
  const isbn = normalizeIsbn(input);
  return (
    isbn !== null &&
    /^\d{13}$/.test(isbn) &&
    BOOKLAND_PREFIXES.includes(isbn.slice(0, 3)) &&
    checkDigit13(isbn.slice(0, 12)) === isbn[12]
  );
}

/**
 * Remembers every ISBN the scanner has seen today and emits "new-title" the
 * first time an unknown one is scanned, so the clerk can add it to the catalogue.
 */
class ScanLog extends EventEmitter {
  constructor(knownIsbns) {
    super();
    this.known = new Set(knownIsbns);
    this.seen = new Map();
  }

  /** Record one scan; returns the normalised ISBN-13, or null for garbage. */
  record(raw) {
    const isbn = raw.length === 10 ? isbn10To13(raw) : normalizeIsbn(raw);
    if (!isbn || !isValidIsbn13(isbn)) {
      this.emit("rejected", raw);
      return null;
    }
    this.seen.set(isbn, (this.seen.get(isbn) || 0) + 1);
    if (!this.known.has(isbn)) {
      this.known.add(isbn);
      this.emit("new-title", isbn);
    }
    return isbn;
  }

  /** How many times an ISBN was scanned today. */
  count(isbn) {
    return this.seen.get(isbn) || 0;
  }

  /** A short fingerprint of today's scans, printed on the end-of-day slip. */
  fingerprint() {
    const lines = [...this.seen.entries()].sort().map(([isbn, n]) => `${isbn}:${n}`);
    return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 12);
  }
}

module.exports = {
  normalizeIsbn,
  checkDigit13,
  isbn10To13,
  isValidIsbn13,
  ScanLog,
};
