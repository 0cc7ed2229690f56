// Reads JSON cases [{seats, handSize, offers, stored}] on stdin and prints, as JSON, the
// deal line the phone's draft writes for each recorded deal it amends
// (DealDraft.fromFacts(stored).line()). tests/web/test_js_model.py parses the lines with
// the engine's deal grammar: the round trip between the phone and the engine.
import { DealDraft } from "../../ledger/web/static/app/model-draft.js";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const lines = JSON.parse(input).map(({ seats, handSize, offers, stored }) => {
  const d = DealDraft.fromFacts(stored, { seats, handSize, offers });
  return d.ready() ? d.line() : null;
});
process.stdout.write(JSON.stringify(lines));
