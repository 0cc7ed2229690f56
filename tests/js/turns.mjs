// Reads JSON cases [{words, next}] on stdin and prints, as JSON, who deals and leads next
// as the phone says it (names.js turnText) in each case's words.
// tests/web/test_js_model.py compares each with the engine's own sentence (Turn.describe).
import { setWords } from "../../ledger/web/static/app/words.js";
import { turnText } from "../../ledger/web/static/app/names.js";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const said = JSON.parse(input).map(({ words, next }) => {
  setWords(words);
  return turnText(next);
});
process.stdout.write(JSON.stringify(said));
