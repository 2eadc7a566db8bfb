// The Boneyard table: draws what the server's session says (GET /api/state) and sends the
// player's clicks back. It keeps no game state of its own: every answer is the whole table.
"use strict";

let table = null;
let busy = false;

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) {
    if (c !== null && c !== undefined) node.append(c);
  }
  return node;
}

async function call(method, path, body) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    const res = await fetch(path, {
      method,
      headers: body ? {"Content-Type": "application/json"} : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    draw(await res.json());
  } catch (err) {
    showError("The table's server does not answer (" + err + "). Is boneyard play still running?");
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  box.hidden = !text;
}

function cardNode(card, moves) {
  const src = "/card/" + encodeURIComponent(card.face || card.back) + ".png";
  const mine = card.card !== undefined ? moves.filter((m) => m.card === card.card) : [];
  const node = el("figure", {
    class: "card" + (card.back ? " back" : "") + (card.dim ? " dim" : "") + (mine.length ? " playable" : ""),
    title: card.name + (card.note ? " (" + card.note + ")" : ""),
    "data-face": card.face || null,
    "data-card": card.card !== undefined ? String(card.card) : null,
  });
  const img = el("img", {src, alt: card.name, loading: "lazy"});
  img.addEventListener("error", () => img.replaceWith(el("div", {class: "cardtext"}, card.name)));
  node.append(img, el("figcaption", {}, card.note || (card.back ? "" : card.name)));
  if (mine.length) {
    node.addEventListener("click", () => {
      if (mine.length === 1) play(mine[0].i);
      else highlight(mine);
    });
  }
  return node;
}

function highlight(moves) {
  document.querySelectorAll("button.move").forEach((b) => b.classList.remove("hint"));
  for (const m of moves) {
    const b = document.querySelector('button.move[data-i="' + m.i + '"]');
    if (b) b.classList.add("hint");
  }
}

function play(i) {
  // "at" and "deal" name the table this page shows: a stale page's click is refused
  call("POST", "/api/move", {i, at: table ? table.at : null, deal: table ? table.deal : null});
}

function drawBoard(t) {
  const board = $("board");
  board.replaceChildren();
  const moves = t.moves || [];
  for (const area of t.areas || []) {
    const box = el("section", {class: "area" + (area.seat === t.seat ? " mine" : ""),
                               "data-seat": area.seat === null ? null : String(area.seat)});
    box.append(el("h2", {}, area.title));
    const zones = el("div", {class: "zones"});
    box.append(zones);
    for (const zone of area.zones) {
      const z = el("div", {class: "zone"});
      z.append(el("h3", {}, zone.title, zone.text ? el("span", {class: "muted"}, " " + zone.text) : null));
      const row = el("div", {class: "cards"});
      for (const c of zone.cards) row.append(cardNode(c, moves));
      z.append(row);
      zones.append(z);
    }
    board.append(box);
  }
}

function drawMoves(t) {
  const box = $("moves");
  box.replaceChildren();
  const moves = t.moves || [];
  if (!moves.length) {
    box.append(el("p", {class: "muted"}, t.over ? "The game is over." : "Not your move."));
    return;
  }
  let group = null;
  let list = null;
  for (const m of moves) {
    if (m.group !== group) {
      group = m.group;
      box.append(el("h3", {}, group || ""));
      list = el("div", {class: "group"});
      box.append(list);
    }
    list.append(el("button", {type: "button", class: "move", "data-i": String(m.i),
                              onclick: () => play(m.i)}, m.label));
  }
}

function drawSeats(t) {
  const seats = $("seats");
  seats.replaceChildren();
  for (const s of t.seats || []) {
    seats.append(el("li", {class: (s.to_move ? "to-move" : "") + (s.seat === t.seat ? " me" : "")},
      el("strong", {}, "Player " + (s.seat + 1) + " (" + s.name + ")"), " ",
      el("span", {class: "score"}, String(s.score)), " ",
      el("span", {class: "muted"}, s.marks.join(", "))));
  }
}

function drawPanels(t) {
  const box = $("panels");
  box.replaceChildren();
  for (const p of t.panels || []) {
    const ul = el("ul");
    for (const line of p.lines) ul.append(el("li", {}, line));
    box.append(el("section", {class: "panel"}, el("h2", {}, p.title), ul));
  }
}

function drawSetup(setup) {
  const players = $("ng-players");
  players.replaceChildren();
  for (let n = setup.min_players; n <= setup.max_players; n++) {
    players.append(el("option", {value: String(n), selected: n === setup.players}, String(n)));
  }
  seatChoices(setup.players || setup.max_players, setup.seat);
  $("ng-agents").value = (setup.agents || ["greedy"]).join(",");
  $("ng-seed").value = setup.fixed_seed === null || setup.fixed_seed === undefined ? "" : String(setup.fixed_seed);
  const opts = $("ng-options");
  opts.replaceChildren();
  for (const o of setup.options || []) {
    if (o.flag) {
      opts.append(el("label", {title: o.help}, el("input", {type: "checkbox", id: "ng-opt-" + o.name,
                                                             checked: !!o.value}), " " + o.name));
    }
  }
  const sw = $("switches");
  sw.replaceChildren();
  for (const [k, v] of Object.entries(setup.switches || {})) sw.append(el("li", {}, k + ": " + JSON.stringify(v)));
}

function seatChoices(players, chosen) {
  const seat = $("ng-seat");
  seat.replaceChildren();
  for (let n = 0; n < players; n++) {
    seat.append(el("option", {value: String(n), selected: n === chosen}, "Player " + (n + 1)));
  }
}

function draw(t) {
  table = t;
  showError(t.error);
  drawSetup(t.setup);
  const problems = t.problems || null;
  $("problems").hidden = !problems;
  if (problems) {
    const list = $("problem-list");
    list.replaceChildren(...problems.map((p) => el("li", {}, p)));
    $("status").textContent = "The set does not load";
    $("board").replaceChildren();
    $("moves").replaceChildren();
    $("transcript").textContent = "";
    document.body.dataset.at = "-1";
    document.body.dataset.over = "0";
    document.body.dataset.problems = "1";
    $("undo").disabled = true;
    $("save").disabled = true;
    return;
  }
  document.body.dataset.problems = "0";
  $("game").textContent = t.game;
  $("set").textContent = t.set && t.set !== t.game ? t.set : "";
  $("status").textContent = t.status;
  $("turn").textContent = t.turn + (t.seed !== null && t.seed !== undefined ? " (seed " + t.seed + ")" : "");
  drawSeats(t);
  drawBoard(t);
  drawMoves(t);
  drawPanels(t);
  $("undo").disabled = !t.can_take_back;
  $("save").disabled = !t.can_save;
  $("save").title = t.can_save ? "Append the finished game to the log file, as boneyard replay reads it"
                               : "Finish the game first: boneyard replay checks how it ended";
  $("saved").textContent = t.saved ? "Saved. Replay it with: " + t.saved : "";
  const log = $("transcript");
  log.textContent = t.transcript.join("\n");
  log.scrollTop = log.scrollHeight;
  document.body.dataset.at = String(t.at);
  document.body.dataset.over = t.over ? "1" : "0";
}

function newGame(event) {
  event.preventDefault();
  const seed = $("ng-seed").value.trim();
  const options = {};
  for (const o of (table && table.setup.options) || []) {
    if (o.flag) options[o.name] = $("ng-opt-" + o.name).checked;
  }
  $("newgame").hidden = true;
  call("POST", "/api/new", {
    players: parseInt($("ng-players").value, 10) || null,
    seat: parseInt($("ng-seat").value, 10) || 0,
    seed: seed === "" ? null : parseInt(seed, 10),
    agents: $("ng-agents").value.split(",").map((a) => a.trim()).filter((a) => a),
    options,
  });
}

$("undo").addEventListener("click", () => call("POST", "/api/undo",
  table ? {at: table.at, deal: table.deal} : undefined));
$("save").addEventListener("click", () => call("POST", "/api/save"));
$("new").addEventListener("click", () => { $("newgame").hidden = !$("newgame").hidden; });
$("ng-players").addEventListener("change", () => {
  seatChoices(parseInt($("ng-players").value, 10), parseInt($("ng-seat").value, 10) || 0);
});
$("ng-cancel").addEventListener("click", () => { $("newgame").hidden = true; });
$("newgame").addEventListener("submit", newGame);
call("GET", "/api/state");
