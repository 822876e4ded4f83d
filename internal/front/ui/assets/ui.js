// sponge ui: the little script its pages use. The server makes every piece
// of HTML (html/template escapes the library's text); this only streams the
// answer's pieces in, scrolls to a quote, and seeks a recording.
"use strict";

function streamAnswer(section) {
  const list = document.getElementById("statements");
  const status = document.getElementById("status");
  const src = new EventSource(section.dataset.stream);
  const add = (ev) => {
    list.insertAdjacentHTML("beforeend", ev.data);
    status.textContent = "Working on it… more may come.";
  };
  src.addEventListener("statement", add);
  src.addEventListener("passage", add);
  const finish = (ev) => {
    src.close();
    status.remove();
    section.insertAdjacentHTML("beforeend", ev.data);
    section.setAttribute("aria-busy", "false");
  };
  src.addEventListener("end", finish);
  src.addEventListener("failure", finish);
  src.onerror = () => {
    // The stream ended without its last event: the server stopped.
    if (src.readyState !== EventSource.CLOSED) {
      src.close();
      status.textContent = "The connection to sponge ui was lost before the answer was finished.";
      section.setAttribute("aria-busy", "false");
    }
  };
}

function showTarget(article) {
  const target = Number(article.dataset.target);
  if (target < 0) return;
  const p = document.getElementById("p" + target);
  if (!p) return;
  const mark = document.getElementById("quote");
  (mark || p).scrollIntoView({ block: "center" });
  p.focus({ preventScroll: true });
}

function seekButtons() {
  const media = document.getElementById("media");
  if (!media) return;
  for (const b of document.querySelectorAll("button.seek")) {
    b.addEventListener("click", () => {
      media.currentTime = Number(b.dataset.t);
      media.play();
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const answer = document.getElementById("answer");
  if (answer && answer.dataset.stream) streamAnswer(answer);
  const article = document.querySelector("article.itempage");
  if (article) showTarget(article);
  seekButtons();
});
