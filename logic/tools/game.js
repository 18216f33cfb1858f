// A game to click against the agent (logic/tools/game.py): the board, each move in words, the
// moves' values on demand and the search of the agent's last move one click away. Shared by
// the site's game page and the notebook's game; `brain` answers, each call a promise:
//   start() -> a turn; click(state, cell) -> a turn, or {error}; values(state) -> {values,
//   best} or {error}; search(state) -> {html} or {error}.
// A turn is {state, to_move, said, result, agent_from}. A refused click changes nothing.
const GAME_STYLE = `
.game-board { display: grid; grid-template-columns: repeat(3, 4.5rem); gap: 4px; margin: .5rem 0; }
.game-cell { width: 4.5rem; height: 4.5rem; font: bold 2rem sans-serif; cursor: pointer;
  background: #fff; border: 2px solid #333; color: #000; }
.game-cell.taken { cursor: not-allowed; }
.game-cell.valued { font: 1rem sans-serif; color: #555; }
.game-error { color: #a00; min-height: 1.2em; }
.game-view iframe { width: 100%; height: 640px; border: 1px solid #ccc; }`;

function playGame(root, brain) {
  if (!document.getElementById("game-style")) {
    const style = document.createElement("style");
    style.id = "game-style";
    style.textContent = GAME_STYLE;
    document.head.append(style);
  }
  root.innerHTML = `
<p id="game-setup" class="game-setup"></p>
<div id="game-board" class="game-board" role="grid" aria-label="the board: click a blank cell">
${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((cell) =>
    `<button type="button" class="game-cell" id="game-cell-${cell}" data-cell="${cell}"
      aria-label="cell ${cell}"></button>`).join("")}
</div>
<p id="game-error" class="game-error" role="alert"></p>
<p class="game-controls"><button type="button" id="game-new">New game</button>
<button type="button" id="game-values" aria-pressed="false"
  title="each move's value for the player to move, from that player's side">Show move values</button>
<button type="button" id="game-search" disabled
  title="the tree the agent's search walked for its last move">Its search</button></p>
<ol id="game-said" class="game-said" aria-live="polite"></ol>
<div id="game-view" class="game-view"></div>`;
  const byId = (id) => root.querySelector("#" + id);
  const board = byId("game-board");
  const cells = [...root.querySelectorAll(".game-cell")];
  const game = {state: null, turn: null, agentFrom: null, busy: false, shown: false, values: null};

  const say = (text) => { byId("game-error").textContent = text; };
  const draw = () => {
    const values = game.shown && game.values ? game.values : null;
    cells.forEach((button, index) => {
      const mark = game.state ? game.state[index] : "-";
      const cell = String(index + 1);
      const value = values && mark === "-" ? values.values[cell] : undefined;
      button.textContent = mark !== "-" ? mark
        : value === undefined ? "" : Number(cell) === values.best ? `[${value}]` : value;
      button.className = "game-cell" + (mark !== "-" ? " taken" : value !== undefined ? " valued" : "");
    });
    board.dataset.state = game.state || "";
    board.dataset.toMove = (game.turn && game.turn.to_move) || "";
    board.dataset.result = (game.turn && game.turn.result) || "";
    board.dataset.busy = String(game.busy);
    byId("game-search").disabled = !game.agentFrom;
    byId("game-values").setAttribute("aria-pressed", String(game.shown));
    byId("game-values").textContent = game.shown ? "Hide move values" : "Show move values";
  };
  const valued = async () => {
    game.values = null;
    if (!game.shown || !game.turn || !game.turn.to_move) return;
    const asked = game.state;
    const answer = await brain.values(asked);
    if (answer.error) return say(answer.error);
    if (game.state === asked) game.values = answer;
  };
  const took = async (turn) => {
    if (turn.error) return say(turn.error);
    say("");
    game.turn = turn;
    game.state = turn.state;
    if (turn.agent_from) {
      game.agentFrom = turn.agent_from;
      byId("game-view").innerHTML = "";
    }
    for (const line of turn.said) {
      const item = document.createElement("li");
      item.textContent = line;
      byId("game-said").append(item);
    }
    await valued();
  };
  // One answer at a time: a click while the agent thinks is refused, the game unchanged.
  const asking = async (work) => {
    if (game.busy) return say("wait: the agent is still thinking");
    game.busy = true;
    draw();
    try {
      await work();
    } catch (error) {
      say(String(error.message || error));
    } finally {
      game.busy = false;
      draw();
    }
  };
  const newGame = () => asking(async () => {
    game.state = null;
    game.turn = null;
    game.agentFrom = null;
    game.values = null;
    byId("game-said").innerHTML = "";
    byId("game-view").innerHTML = "";
    const turn = await brain.start();
    if (turn.setup) byId("game-setup").textContent = turn.setup;
    await took(turn);
  });
  cells.forEach((button) => button.addEventListener("click", () => asking(async () => {
    if (!game.turn) return say("start a new game first");
    await took(await brain.click(game.state, Number(button.dataset.cell)));
  })));
  byId("game-new").addEventListener("click", newGame);
  byId("game-values").addEventListener("click", () => asking(async () => {
    game.shown = !game.shown;
    await valued();
  }));
  byId("game-search").addEventListener("click", () => asking(async () => {
    const shown = await brain.search(game.agentFrom);
    if (shown.error) return say(shown.error);
    say("");
    byId("game-view").innerHTML = shown.html;
  }));
  draw();
  return {newGame};
}
