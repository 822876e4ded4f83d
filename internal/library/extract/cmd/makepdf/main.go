// Command makepdf writes testdata/docs/composting-guide.pdf, the sample PDF
// of the demo library: a few A5 pages with a title, headings, a running head,
// page numbers and paragraphs that flow across page breaks. It was run once
// and its output committed; run it again with `go generate ./internal/extract`.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/go-pdf/fpdf"
)

type section struct {
	heading    string
	paragraphs []string
}

var guide = []section{
	{"", []string{
		"Composting turns kitchen scraps and garden waste into a dark, crumbly soil improver. It costs nothing, keeps a third of household rubbish out of the bin, and feeds the soil life that plants depend on. This guide covers a simple cold heap and a faster hot heap.",
	}},
	{"1. Greens and browns", []string{
		"A heap needs two kinds of material. Greens are fresh and moist: vegetable peelings, coffee grounds, tea leaves, grass clippings. They are rich in nitrogen, which the microbes use to grow. Browns are dry and woody: autumn leaves, straw, shredded cardboard, small twigs. They supply carbon, the energy the microbes burn, and they keep the heap open so air can reach the middle.",
		"Aim for roughly equal volumes of greens and browns. A heap with too many greens turns slimy and smells of ammonia; add browns. A heap with too many browns sits there for years without changing; add greens or a little water.",
		"Leave out meat, fish, dairy and cooked food, which attract rats, and diseased plants or weeds that have set seed, which a cold heap does not get hot enough to kill.",
	}},
	{"2. Building a cold heap", []string{
		"Choose a level spot on bare soil, partly shaded, so worms can move in from below and the heap does not dry out in summer. A bin of about one cubic metre is big enough to hold its warmth and small enough to turn by hand.",
		"Add material as it comes, mixing greens and browns in thin layers, and keep the heap as moist as a wrung-out sponge. A cold heap needs no further work: in twelve to eighteen months the bottom of the bin holds finished compost while fresh scraps go on top.",
	}},
	{"3. Hot composting", []string{
		"A hot heap is built all at once from a large batch of mixed material, at least a cubic metre, chopped small so the microbes have more surface to work on. Within two or three days the centre reaches fifty-five to sixty-five degrees Celsius. At that temperature weed seeds and most plant diseases are killed.",
		"Turn the heap every few days when the temperature starts to fall: move the outside to the middle and the middle to the outside, adding water where it is dry. Each turn brings in fresh air and the heat comes back. After four to eight weeks the heap no longer heats up after turning; let it mature for another month before use.",
		"A compost thermometer with a long probe takes the guesswork out of hot composting. If the centre never rises above thirty degrees, the heap is too small, too dry, or short of greens.",
	}},
	{"4. Using the compost", []string{
		"Finished compost is dark brown, smells of forest floor and no longer shows the original material, apart from a few twigs that can go back into the next heap. Sieve it for seed sowing; use it as it is for mulching.",
		"Spread a layer five centimetres deep on beds in autumn or early spring and let the worms take it down, or mix one part compost with three parts soil for planting holes. Compost is a soil improver rather than a strong fertiliser: it feeds slowly and helps sandy soil hold water and clay soil drain.",
	}},
	{"5. Troubleshooting", []string{
		"Flies around the bin mean food scraps are exposed: bury them in the middle of the heap and cover them with browns. A heap that smells rotten is too wet and short of air; turn it and mix in cardboard. Ants in the heap mean it is too dry; water it as you turn it.",
	}},
}

func main() {
	out := flag.String("o", "testdata/docs/composting-guide.pdf", "output file")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "makepdf: error:", err)
		os.Exit(1)
	}
}

func write(path string) error {
	f := fpdf.New("P", "mm", "A5", "")
	tr := f.UnicodeTranslatorFromDescriptor("")
	when := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	f.SetCreationDate(when)
	f.SetModificationDate(when)
	f.SetTitle("Composting at Home: A Short Guide", true)
	f.SetAuthor("Sponge sample documents", true)
	f.SetMargins(18, 20, 18)
	f.SetAutoPageBreak(true, 20)
	f.SetHeaderFunc(func() {
		if f.PageNo() == 1 {
			return
		}
		f.SetFont("Helvetica", "I", 8)
		f.SetY(10)
		f.CellFormat(0, 4, tr("Composting at Home"), "", 0, "R", false, 0, "")
		f.SetY(20)
	})
	f.SetFooterFunc(func() {
		f.SetY(-14)
		f.SetFont("Helvetica", "", 8)
		f.CellFormat(0, 4, fmt.Sprint(f.PageNo()), "", 0, "C", false, 0, "")
	})
	f.AddPage()
	f.SetFont("Helvetica", "B", 20)
	f.MultiCell(0, 9, tr("Composting at Home: A Short Guide"), "", "L", false)
	f.SetFont("Helvetica", "", 9)
	f.MultiCell(0, 5, tr("Notes for the allotment society, spring edition"), "", "L", false)
	f.Ln(4)
	for _, s := range guide {
		if s.heading != "" {
			f.Ln(3)
			f.SetFont("Helvetica", "B", 13)
			f.MultiCell(0, 7, tr(s.heading), "", "L", false)
			f.Ln(1)
		}
		f.SetFont("Helvetica", "", 10.5)
		for _, p := range s.paragraphs {
			f.MultiCell(0, 5, tr(p), "", "J", false)
			f.Ln(2.5)
		}
	}
	return f.OutputFileAndClose(path)
}
