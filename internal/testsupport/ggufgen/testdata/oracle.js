// The tokenization oracle: the npm package's own tokenizer (transformers.js,
// bundled in dist/main.global.js) tokenizes texts as the Hugging Face
// tokenizer of the model does. Run by TestTokenizerGolden -update:
//   node oracle.js PACKAGE_DIR < texts.json > ids.json
// where texts.json is a JSON array of strings and ids.json the array of
// their token ids, without special tokens.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const dir = process.argv[2];
// The bundle assigns its exports to a global variable (named after the
// package); run it with that variable renamed to one we know.
let src = fs.readFileSync(path.join(dir, "dist", "main.global.js"), "utf8");
src = src.replace(/^"use strict";var [A-Za-z_$][\w$]*=/, "globalThis.__oracle=");
vm.runInThisContext(src);
const tokenizer = globalThis.__oracle.fromPreTrained();
const texts = JSON.parse(fs.readFileSync(0, "utf8"));
const ids = texts.map((t) => Array.from(tokenizer.encode(t, { add_special_tokens: false })));
process.stdout.write(JSON.stringify(ids) + "\n");
