// What the sync card says before any try (ledger/web/static/app/reach.js). node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { hubReach } from "../../ledger/web/static/app/reach.js";

const APP = "https://club.github.io/bigtwo/#/history";

test("an https app cannot reach a plain-http hub on the network, but can reach loopback", () => {
  assert.equal(hubReach("http://192.168.1.20:8000/entry?t=abc", APP).state, "blocked");
  assert.equal(hubReach("http://127.0.0.1:8000/entry?t=abc", APP).state, "ok");
  assert.equal(hubReach("http://localhost:8000/?t=abc", APP).state, "ok");
});

test("an https hub is reachable (if it allows this app's address), and an http app reaches either", () => {
  const found = hubReach("https://hub.example.org/entry?t=abc", APP);
  assert.deepEqual(found, { state: "ok", origin: "https://hub.example.org", app: "https://club.github.io" });
  assert.equal(hubReach("http://192.168.1.20:8000/entry?t=abc", "http://127.0.0.1:8000/app/").state, "ok");
});

test("no link, or a link that is not a scorekeeper link", () => {
  assert.equal(hubReach("", APP).state, "none");
  assert.equal(hubReach("192.168.1.20", APP).state, "link");
  assert.equal(hubReach("https://hub.example.org/", APP).state, "link");
  assert.equal(hubReach("ftp://hub.example.org/?t=1", APP).state, "link");
});
