// Command stockcheck reads the nightly stock export of Shelfwise and prints the
// titles that need reordering, grouped by supplier, so the buyer can email them.
//
// Usage:
//
//	stockcheck -export stock.json [-min-order 5000]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

// StockItem is one row of the export: copies of a book on one shelf.
type StockItem struct {
	ISBN         string `json:"isbn"`
	Shelf        string `json:"shelf"`
	Quantity     int    `json:"quantity"`
	ReorderLevel int    `json:"reorderLevel"`
	Discontinued bool   `json:"discontinued"`
}

// Book is the part of a catalogue entry that stockcheck needs.
type Book struct {
	ISBN       string `json:"isbn"`
	Title      string `json:"title"`
	SupplierID string `json:"supplierId"`
	CostCents  int    `json:"costCents"`
}

// Export is the whole file written by the nightly job.
type Export struct {
	Books []Book      `json:"books"`
	Stock []StockItem `json:"stock"`
}

// Reorder is one line of a purchase order suggestion.
type Reorder struct {
	Book     Book
	OnHand   int
	Quantity int
}

// Cost is what the reorder line will cost us.
func (r Reorder) Cost() int {
	return r.Book.CostCents * r.Quantity
}

// String formats the line for the buyer's email.
func (r Reorder) String() string {
	return fmt.Sprintf("%-13s  %-40.40s  on hand %2d  order %2d  %s", r.Book.ISBN, r.Book.Title, r.OnHand, r.Quantity, euros(r.Cost()))
}

// Totals sums stock per ISBN over every shelf, with the highest reorder level of its shelves.
type Totals struct {
	onHand       map[string]int
	reorderLevel map[string]int
	discontinued map[string]bool
}

// NewTotals adds up the stock items of an export.
func NewTotals(items []StockItem) *Totals {
	t := &Totals{onHand: map[string]int{}, reorderLevel: map[string]int{}, discontinued: map[string]bool{}}
	for _, item := range items {
		t.onHand[item.ISBN] += item.Quantity
		if item.ReorderLevel > t.reorderLevel[item.ISBN] {
			t.reorderLevel[item.ISBN] = item.ReorderLevel
		}
		t.discontinued[item.ISBN] = t.discontinued[item.ISBN] || item.Discontinued
	}
	return t
}

// Needs reports how many copies to order to get back above the reorder level (0 for none).
func (t *Totals) Needs(isbn string) int {
	if t.discontinued[isbn] {
		return 0
	}
	level, have := t.reorderLevel[isbn], t.onHand[isbn]
	if have > level {
		return 0
	}
	return level*2 - have
}

// bySupplier builds the reorder lines and groups them by supplier id.
func bySupplier(export Export) map[string][]Reorder {
	totals := NewTotals(export.Stock)
	out := map[string][]Reorder{}
	for _, book := range export.Books {
		if n := totals.Needs(book.ISBN); n > 0 {
			line := Reorder{Book: book, OnHand: totals.onHand[book.ISBN], Quantity: n}
			out[book.SupplierID] = append(out[book.SupplierID], line)
		}
	}
	return out
}

func euros(cents int) string {
	return fmt.Sprintf("€%d.%02d", cents/100, cents%100)
}

func load(path string) (Export, error) {
	var export Export
	data, err := os.ReadFile(path)
	if err != nil {
		return export, err
	}
	if err := json.Unmarshal(data, &export); err != nil {
		return export, fmt.Errorf("%s is not a Shelfwise stock export: %w", path, err)
	}
	return export, nil
}

func main() {
	exportPath := flag.String("export", "stock.json", "stock export written by the nightly job")
	minOrder := flag.Int("min-order", 0, "leave out suppliers whose order would cost less than this many cents")
	flag.Parse()

	export, err := load(*exportPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stockcheck:", err)
		os.Exit(1)
	}

	groups := bySupplier(export)
	suppliers := make([]string, 0, len(groups))
	for id := range groups {
		suppliers = append(suppliers, id)
	}
	sort.Strings(suppliers)

	for _, id := range suppliers {
		lines, total := groups[id], 0
		for _, line := range lines {
			total += line.Cost()
		}
		if total < *minOrder {
			continue
		}
		fmt.Printf("%s (%d titles, %s)\n%s\n", id, len(lines), euros(total), strings.Repeat("=", 60))
		for _, line := range lines {
			fmt.Println(line)
		}
		fmt.Println()
	}
}
