// The PDF page (/item/{id}/page/{n}): draws the page with PDF.js on a
// canvas, lays its text layer over it, and marks the quote of the page's
// address (?q=) on that text layer. The page's markup says what to draw
// (data-source, data-page, data-quote on #pdf-page); no inline script.
// performance marks pdf-page-script (PDF.js loaded, this script runs),
// pdf-page-loaded (the PDF opened) and pdf-page-drawn (canvas, text layer
// and mark done) time it from the navigation's start.
//
// Three things start at once, before PDF.js's 0.5 MB is compiled here: its
// worker (1.3 MB, compiled on a thread of its own), the PDF's bytes, and
// PDF.js itself (a dynamic import); each alone took 0.3-0.8 s.
const worker = new Worker("/assets/pdfjs/pdf.worker.min.mjs", { type: "module" });
const sheet = document.getElementById("pdf-page");
const bytes = fetch(sheet.dataset.source).then((r) => {
  if (!r.ok) throw new Error(`the server answered ${r.status} for the PDF`);
  return r.arrayBuffer();
});
const pdfjs = import("/assets/pdfjs/pdf.min.mjs");

const status = document.getElementById("pdf-status");

// say puts a line in the page's status, read out by screen readers.
function say(text) {
  status.textContent = text;
}

// The characters a match compares: compatibility forms folded (ligatures,
// full-width letters), lower case, curly quotes straight; spaces, hyphens
// and soft hyphens dropped, since a PDF's text layer breaks its lines (and
// words at a hyphen) where the saved text runs on. For every script:
// nothing here is particular to a language.
function fold(ch) {
  return ch
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\s\u00ad\u2010\u2011-]/gu, "");
}

// foldAll is the folded text of strs (the text layer's items, in order) and,
// for each of its UTF-16 units, the item and the span of the item's text it
// came from.
function foldAll(strs) {
  let text = "";
  const from = [];
  strs.forEach((str, item) => {
    let at = 0;
    for (const ch of str) {
      const folded = fold(ch);
      for (let k = 0; k < folded.length; k++) {
        from.push({ item, start: at, end: at + ch.length });
      }
      text += folded;
      at += ch.length;
    }
  });
  return { text, from };
}

// longest is the longest length n (at least min) for which has(n) holds,
// has holding for every length below one it holds for; 0 if none.
function longest(max, min, has) {
  if (max < min || !has(min)) return 0;
  let lo = min;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (has(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// A part of a quote shorter than this is not marked: a few letters are
// found on most pages.
const minPart = 16;

// findQuote returns where quote is in the page's folded text: [start, end)
// of the whole quote, else of its longest beginning or end found (a quote
// that runs from one page onto the next), with whole=false; null if not
// even minPart characters of it are.
function findQuote(page, quote) {
  const q = foldAll([quote]).text;
  if (q === "") return null;
  const at = page.indexOf(q);
  if (at >= 0) return { start: at, end: at + q.length, whole: true };
  const min = Math.min(minPart, q.length);
  const head = longest(q.length - 1, min, (n) => page.includes(q.slice(0, n)));
  const tail = longest(q.length - 1, min, (n) => page.includes(q.slice(q.length - n)));
  if (head === 0 && tail === 0) return null;
  if (head >= tail) {
    const s = page.indexOf(q.slice(0, head));
    return { start: s, end: s + head, whole: false };
  }
  const s = page.indexOf(q.slice(q.length - tail));
  return { start: s, end: s + tail, whole: false };
}

// mark wraps [start, end) of one text layer span in a highlight, as
// PDF.js's own viewer marks a search result.
function mark(div, start, end, where) {
  const text = div.textContent;
  const hl = document.createElement("span");
  hl.className = `highlight appended ${where}`;
  hl.textContent = text.slice(start, end);
  div.textContent = "";
  div.append(text.slice(0, start), hl, text.slice(end));
  return hl;
}

// markQuote marks the quote on the text layer and returns the marks.
function markQuote(layer, quote) {
  const { text, from } = foldAll(layer.textContentItemsStr);
  const found = findQuote(text, quote);
  if (!found) return { marks: [], whole: false };
  // The spans of each item the match touches, in order.
  const parts = [];
  for (let i = found.start; i < found.end; i++) {
    const f = from[i];
    const last = parts[parts.length - 1];
    if (last && last.item === f.item) last.end = Math.max(last.end, f.end);
    else parts.push({ item: f.item, start: f.start, end: f.end });
  }
  // A line's mark runs on over the spaces and hyphen that end it, when the
  // quote goes on to the next line.
  for (const p of parts.slice(0, -1)) {
    const str = layer.textContentItemsStr[p.item];
    if (fold(str.slice(p.end)) === "") p.end = str.length;
  }
  const marks = parts.map((p, i) => {
    const where = parts.length === 1 ? "" : i === 0 ? "begin" : i === parts.length - 1 ? "end" : "middle";
    return mark(layer.textDivs[p.item], p.start, p.end, where);
  });
  return { marks, whole: found.whole };
}

// navigate follows the page's previous or next link from the keyboard:
// the left and right arrows, where no field or modifier wants them.
function navigate(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target instanceof HTMLElement && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
  const link = rel && document.querySelector(`a[rel="${rel}"]`);
  if (link) {
    event.preventDefault();
    link.click();
  }
}

async function draw() {
  const n = Number(sheet.dataset.page);
  const quote = sheet.dataset.quote || "";
  const { getDocument, GlobalWorkerOptions, TextLayer } = await pdfjs;
  performance.mark("pdf-page-script");
  GlobalWorkerOptions.workerPort = worker;
  // The whole file in one request: the server reads an item's source whole,
  // so ranges would read it again for each.
  const pdf = await getDocument({
    data: await bytes,
    useWasm: false,
    isOffscreenCanvasSupported: true,
  }).promise;
  performance.mark("pdf-page-loaded");
  const count = document.getElementById("pdf-count");
  count.textContent = String(pdf.numPages);
  count.parentElement.hidden = false;
  if (n >= pdf.numPages) document.querySelector('a[rel="next"]')?.remove();
  if (n > pdf.numPages) {
    throw new Error(`it has ${pdf.numPages} page${pdf.numPages === 1 ? "" : "s"}`);
  }
  const page = await pdf.getPage(n);
  // As wide as the column allows, up to twice the page's own size.
  const natural = page.getViewport({ scale: 1 });
  const scale = Math.max(0.5, Math.min(2, sheet.parentElement.clientWidth / natural.width));
  const viewport = page.getViewport({ scale });
  const ratio = window.devicePixelRatio || 1;
  const canvas = sheet.querySelector("canvas");
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  canvas.style.height = `${Math.floor(viewport.height)}px`;
  sheet.style.setProperty("--total-scale-factor", String(scale));
  const layerDiv = sheet.querySelector(".textLayer");
  const layer = new TextLayer({ textContentSource: page.streamTextContent(), container: layerDiv, viewport });
  await Promise.all([
    page.render({ canvas, viewport, transform: ratio === 1 ? null : [ratio, 0, 0, ratio, 0, 0] }).promise,
    layer.render(),
  ]);
  if (quote !== "") {
    const { marks, whole } = markQuote(layer, quote);
    if (marks.length === 0) {
      say(`The quote is not in the text of page ${n}.`);
    } else {
      const r = marks[0].getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) marks[0].scrollIntoView({ block: "center" });
      say(whole ? `The quote is marked on page ${n}.` : `Part of the quote is marked on page ${n}: it runs over a page break.`);
    }
    sheet.dataset.marks = String(marks.length);
  }
  performance.mark("pdf-page-drawn");
  performance.measure("pdf-page", { start: 0, end: "pdf-page-drawn" });
  sheet.dataset.state = "drawn";
}

document.addEventListener("keydown", navigate);
draw().catch((err) => {
  sheet.dataset.state = "failed";
  say(`This page cannot be drawn: ${err && err.message ? err.message : err}.`);
});
